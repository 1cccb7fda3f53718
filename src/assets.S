/* assets.S - files embedded in the binary at build time (the OpenAPI spec).
 * Each blob is followed by a NUL byte so it can also be used as a string;
 * the symbols are declared in include/api.h. */
    .section .rodata
    .global api_openapi_yaml
    .global api_openapi_yaml_end
api_openapi_yaml:
    .incbin "openapi.yaml"
api_openapi_yaml_end:
    .byte 0
    .section .note.GNU-stack,"",@progbits
