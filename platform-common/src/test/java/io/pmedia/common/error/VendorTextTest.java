package io.pmedia.common.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VendorTextTest {

    private static VendorText.Shape scan(String json) {
        return VendorText.scan(json.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"client-request-id\":\"a\\u0000b\"}                          | field 'client-request-id' must not contain control characters (U+0000 at position 2)",
            "{\"data\":{\"personalization_fields\":{\"name\":\"x\\u0007\"}}} | field 'data.personalization_fields.name' must not contain control characters (U+0007 at position 2)",
            "{\"garment-image\":[\"ok\",\"\\u009b\"]}                      | field 'garment-image[1]' must not contain control characters (U+009B at position 1)",
            "{\"user-id\":\"a\\ud800b\"}                                  | field 'user-id' is not valid Unicode text: a lone surrogate at position 2",
            "{\"user-id\":\"\\udc00\"}                                    | field 'user-id' is not valid Unicode text: a lone surrogate at position 1",
            "{\"data\":{\"a\\u0000\":1}}                                  | a field name in data must not contain control characters (U+0000 at position 2)"})
    void refusesControlCharactersAndLoneSurrogatesNamingTheField(String json, String message) {
        assertThatThrownBy(() -> scan(json)).isInstanceOf(ApiException.class)
                .hasMessage(message)
                .satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo(ErrorCode.VALIDATION_ERROR));
    }

    @Test
    void freeTextMayBreakLinesAndTabsAndHoldEmoji() {
        assertThat(scan("{\"offer\":\"line\\none\\r\\n\\ttwo 😀 \\ud83d\\ude00\"}")).isEqualTo(VendorText.Shape.OBJECT);
    }

    @Test
    void identifiersRefuseLineBreaksToo() {
        assertThat(VendorText.check("field 'id'", "a\nb", false)).isNotNull();
        assertThat(VendorText.check("field 'id'", "a\nb", true)).isNull();
    }

    @Test
    void deepNestingIsABadRequestNotAStackOverflow() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        assertThatThrownBy(() -> scan(deep)).isInstanceOf(ApiException.class)
                .hasMessage("request body nests deeper than 64 levels");
        assertThat(scan("[".repeat(64) + "]".repeat(64))).isEqualTo(VendorText.Shape.OTHER);
    }

    @Test
    void malformedJsonAndTrailingContentAreBadRequests() {
        assertThatThrownBy(() -> scan("{\"a\":")).isInstanceOf(ApiException.class)
                .hasMessageStartingWith("malformed JSON");
        assertThatThrownBy(() -> scan("{\"a\":1}{\"b\":2}")).isInstanceOf(ApiException.class)
                .hasMessageStartingWith("malformed JSON: content after the end of the JSON value");
        assertThatThrownBy(() -> VendorText.scan(new byte[]{'"', (byte) 0xff, '"'})).isInstanceOf(
                ApiException.class).hasMessageStartingWith("malformed JSON");
    }

    @Test
    void emptyAndScalarBodiesAreTold() {
        assertThat(scan("")).isEqualTo(VendorText.Shape.EMPTY);
        assertThat(scan("  ")).isEqualTo(VendorText.Shape.EMPTY);
        assertThat(scan("\"text\"")).isEqualTo(VendorText.Shape.OTHER);
        assertThat(scan("{}")).isEqualTo(VendorText.Shape.OBJECT);
    }

    @Test
    void aNameInAMessageNeverCarriesTheCharacterItIsAbout() {
        assertThatThrownBy(() -> scan("{\"a\\u0001\":{\"b\":\"\\u0000\"}}")).hasMessageStartingWith(
                "a field name in the request body must not contain control characters");
    }
}
