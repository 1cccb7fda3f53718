/* assets.h - the documents embedded at build time by assets.S: the OpenAPI
 * document and the demo page. Only the api serves them (api.c); tests read
 * them to compare with the files. */
#ifndef API_ASSETS_H
#define API_ASSETS_H

/* The OpenAPI document embedded at build time (src/api/assets.S), followed by a
 * NUL byte at api_openapi_yaml_end. */
extern const char api_openapi_yaml[];
extern const char api_openapi_yaml_end[];

/* The demo page (src/web/), embedded the same way. */
extern const char api_index_html[], api_index_html_end[];
extern const char api_app_js[], api_app_js_end[];
extern const char api_app_css[], api_app_css_end[];
extern const char api_favicon_ico[], api_favicon_ico_end[];

#endif
