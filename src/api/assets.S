/* assets.S - files embedded in the binary at build time (the OpenAPI spec
 * and the demo page: src/web/, its script in parts in src/web/js/).
 * Each blob is followed by a NUL byte so it can also be used as a string;
 * the symbols are declared in include/api/api.h. */
    .section .rodata
    .global api_openapi_yaml
    .global api_openapi_yaml_end
api_openapi_yaml:
    .incbin "openapi.yaml"
api_openapi_yaml_end:
    .byte 0
    .global api_index_html
    .global api_index_html_end
api_index_html:
    .incbin "src/web/index.html"
api_index_html_end:
    .byte 0
    .global api_app_js
    .global api_app_js_end
/* /app.js is the parts of src/web/js/ one after another, in this order:
 * core.js opens the one function scope they share and main.js closes it. */
api_app_js:
    .incbin "src/web/js/core.js"
    .incbin "src/web/js/variant.js"
    .incbin "src/web/js/grid.js"
    .incbin "src/web/js/game.js"
    .incbin "src/web/js/api.js"
    .incbin "src/web/js/logic.js"
    .incbin "src/web/js/main.js"
api_app_js_end:
    .byte 0
    .global api_app_css
    .global api_app_css_end
api_app_css:
    .incbin "src/web/app.css"
api_app_css_end:
    .byte 0
    .global api_favicon_ico
    .global api_favicon_ico_end
api_favicon_ico:
    .incbin "src/web/favicon.ico"
api_favicon_ico_end:
    .byte 0
    .section .note.GNU-stack,"",@progbits
