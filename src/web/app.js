// app.js - the demo page's script (placeholder until the page is built).
