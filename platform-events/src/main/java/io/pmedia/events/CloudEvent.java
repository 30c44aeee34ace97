package io.pmedia.events;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A CloudEvents 1.0 structured-mode JSON envelope: the one event contract of every pmedia topic (contracts.md,
 * "Events"). {@code data} stays a JSON tree so consumers can read envelopes of any producer without its classes.
 */
@JsonPropertyOrder({"specversion", "id", "source", "type", "time", "subject", "datacontenttype", "data"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CloudEvent(String specversion, String id, String source, String type,
        @JsonFormat(shape = JsonFormat.Shape.STRING) Instant time, String subject, String datacontenttype,
        JsonNode data) {

    public static final String SPEC_VERSION = "1.0";

    /** A new event with a fresh id and the current time. */
    public static CloudEvent of(String source, String type, String subject, JsonNode data) {
        return new CloudEvent(SPEC_VERSION, UUID.randomUUID().toString(), source, type, Instant.now(), subject,
                "application/json", data);
    }
}
