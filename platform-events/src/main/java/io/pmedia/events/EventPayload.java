package io.pmedia.events;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * The {@code data} of an event on a pmedia topic, typed: one record per message of docs/asyncapi.yaml. Each knows
 * the topic it is published on, its CloudEvents {@code type} and its record key (the resource's identifier, so one
 * resource's events keep their order). A renamed field is a compile error in every producer and consumer.
 */
public sealed interface EventPayload permits MediaStatusChanged, BatchStatusChanged, TryOnStatusChanged,
        CampaignStatusChanged, DeliveryExhausted, RenderJob, RenderResult, SharedVideo, ViewerEvent,
        EngagementMilestone, RenderOnView {

    /** The topic it is published on. */
    @JsonIgnore
    String topic();

    /** Its CloudEvents {@code type}. */
    @JsonIgnore
    String type();

    /** The Kafka record key and the envelope's {@code subject}. */
    @JsonIgnore
    String key();
}
