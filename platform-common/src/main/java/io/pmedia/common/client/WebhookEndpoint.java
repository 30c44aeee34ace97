package io.pmedia.common.client;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A vendor's webhook endpoint as a vendor sets it ({@code PUT /webhooks/endpoint}) and the notifier hands it to the
 * gateway's registry ({@code PUT /internal/clients/{id}/webhook}), with the same field names: the URL (null: none)
 * and the event types (null: the default).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record WebhookEndpoint(String url,
        @JsonProperty("event-types") List<String> eventTypes) {
}
