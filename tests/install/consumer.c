/*
 * A minimal consumer of an installed mrtr: built by scripts/test-install with
 * pkg-config and with CMake against a temporary prefix. Prints one line that
 * the script compares byte for byte, and exits 0 only if the calls behave.
 */
#include <stdio.h>
#include <string.h>

#include <mrtr.h>

int main(void) {
    static const char doc[] = "{\"resultType\":\"complete\",\"content\":[]}";
    uint8_t quoted[16];
    size_t written = 0;
    mrtr_str text = {"hi\n", 3};
    mrtr_status valid = mrtr_json_validate((const uint8_t *)doc, strlen(doc), 0, NULL);
    mrtr_status quote = mrtr_json_write_string(text, quoted, sizeof quoted, &written);
    printf("mrtr %s protocol %s validate %s quote %s %.*s\n", mrtr_version(),
           mrtr_protocol_version(), mrtr_status_str(valid), mrtr_status_str(quote),
           (int)written, (const char *)quoted);
    return valid == MRTR_OK && quote == MRTR_OK ? 0 : 1;
}
