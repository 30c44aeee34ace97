package io.pmedia.common.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

class ErrorBodyTest {

    private final ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule());

    @Test
    void handWrittenJsonMatchesJacksonAndEscapes() throws Exception {
        ErrorBody body = ErrorBody.of(ErrorCode.VALIDATION_ERROR, "field \"x\"\nis <bad> \\ \u0001");
        JsonNode parsed = mapper.readTree(body.toJson());
        assertThat(parsed.get("error").asBoolean()).isTrue();
        assertThat(parsed.get("message").asText()).isEqualTo(body.message());
        assertThat(parsed.get("code").asText()).isEqualTo("VALIDATION_ERROR");
        assertThat(parsed.get("timestamp").asText()).isEqualTo(body.timestamp().toString());
        assertThat(parsed.size()).isEqualTo(4);
    }
}
