package io.pmedia.events;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Writes and reads the events of docs/asyncapi.yaml: a typed payload into its CloudEvents envelope, and an envelope
 * back into the payload type its {@code type} names. Every producer and consumer goes through it, so no event is
 * built or read by string key.
 */
public final class EventCodec {

    /** Why a record is not an event this codec can read (consumers log and skip it). */
    public static final class UnreadableEvent extends RuntimeException {
        public UnreadableEvent(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }

    private static final Map<Class<? extends EventPayload>, String> TYPES = Map.ofEntries(
            Map.entry(SharedVideo.class, Topics.VIDEO_SHARED),
            Map.entry(ViewerEvent.class, Topics.VIEWER_EVENT),
            Map.entry(EngagementMilestone.class, Topics.ENGAGEMENT_MILESTONE),
            Map.entry(MediaStatusChanged.class, Topics.MEDIA_STATUS_CHANGED),
            Map.entry(BatchStatusChanged.class, Topics.BATCH_STATUS_CHANGED),
            Map.entry(TryOnStatusChanged.class, Topics.VTON_STATUS_CHANGED),
            Map.entry(CampaignStatusChanged.class, Topics.CAMPAIGN_STATUS_CHANGED),
            Map.entry(DeliveryExhausted.class, Topics.WEBHOOK_EXHAUSTED),
            Map.entry(RenderJob.class, Topics.RENDER_JOB_REQUESTED),
            Map.entry(RenderResult.class, Topics.RENDER_JOB_COMPLETED),
            Map.entry(RenderOnView.class, Topics.RENDER_ON_VIEW));

    private final ObjectMapper mapper;

    public EventCodec(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The CloudEvents {@code type} of a payload class. */
    public static String typeOf(Class<? extends EventPayload> payload) {
        return TYPES.get(payload);
    }

    /** A new envelope (fresh id, current time) around {@code payload}, from {@code source}. */
    public CloudEvent envelope(String source, EventPayload payload) {
        return CloudEvent.of(source, payload.type(), payload.key(), mapper.valueToTree(payload));
    }

    /**
     * A new envelope around {@code payload} as the JSON text a record carries, written in one pass: the same text as
     * {@code json(envelope(source, payload))}, without the intermediate tree (for a path that sends many events).
     */
    public String json(String source, EventPayload payload) {
        return text(source, payload).json();
    }

    /** An envelope's id and its JSON text, as {@link #text(String, EventPayload)} writes it. */
    public record Text(String id, String json) {
    }

    /**
     * {@link #json(String, EventPayload)} with the new envelope's id beside its text (what an outbox row keeps): one
     * pass, no intermediate tree, for a path that writes large events (a batch task's share pages).
     */
    public Text text(String source, EventPayload payload) {
        CloudEvent envelope = CloudEvent.of(source, payload.type(), payload.key(), null);
        try {
            return new Text(envelope.id(), mapper.writeValueAsString(new Written(envelope.specversion(),
                    envelope.id(), envelope.source(), envelope.type(), envelope.time(), envelope.subject(),
                    envelope.datacontenttype(), payload)));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("event cannot be serialized: " + e.getMessage(), e);
        }
    }

    /** {@link CloudEvent} with its data as the payload object itself, for {@link #json(String, EventPayload)}. */
    @JsonPropertyOrder({"specversion", "id", "source", "type", "time", "subject", "datacontenttype", "data"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    private record Written(String specversion, String id, String source, String type,
            @JsonFormat(shape = JsonFormat.Shape.STRING) Instant time, String subject, String datacontenttype,
            EventPayload data) {
    }

    /** The envelope as the JSON text a record carries. */
    public String json(CloudEvent event) {
        try {
            return mapper.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("event cannot be serialized: " + e.getMessage(), e);
        }
    }

    /** The envelope of a record's value. */
    public CloudEvent read(String json) {
        try {
            CloudEvent event = mapper.readValue(json, CloudEvent.class);
            if (event == null || event.id() == null || event.type() == null) {
                throw new UnreadableEvent("not a CloudEvent: no id or type", null);
            }
            return event;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new UnreadableEvent("not a CloudEvent: " + e.getMessage(), e);
        }
    }

    /**
     * The payload of {@code event} as {@code type}; empty when the envelope carries another type of event (a topic
     * may carry more than one).
     */
    public <T extends EventPayload> Optional<T> data(CloudEvent event, Class<T> type) {
        if (!TYPES.get(type).equals(event.type())) {
            return Optional.empty();
        }
        try {
            return Optional.of(mapper.treeToValue(event.data(), type));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new UnreadableEvent("event " + event.id() + " has no readable " + type.getSimpleName() + ": "
                    + e.getMessage(), e);
        }
    }

    /** {@link #read} then {@link #data}. */
    public <T extends EventPayload> Optional<T> decode(String json, Class<T> type) {
        return data(read(json), type);
    }
}
