package io.pmedia.common.error;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** The error response of interface section 2.11, the one body every failure of every service carries. */
@JsonPropertyOrder({"error", "message", "code", "timestamp"})
public record ErrorBody(boolean error, String message, String code,
        @JsonFormat(shape = JsonFormat.Shape.STRING) Instant timestamp) {

    public static ErrorBody of(ErrorCode code, String message) {
        return new ErrorBody(true, message, code.name(), Instant.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /** The same body as JSON text, for layers below JAX-RS (Vert.x failure handlers) that have no object mapper. */
    public String toJson() {
        StringBuilder json = new StringBuilder(96 + message.length());
        json.append("{\"error\":true,\"message\":");
        appendQuoted(json, message);
        json.append(",\"code\":");
        appendQuoted(json, code);
        json.append(",\"timestamp\":");
        appendQuoted(json, timestamp.toString());
        return json.append('}').toString();
    }

    private static void appendQuoted(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
