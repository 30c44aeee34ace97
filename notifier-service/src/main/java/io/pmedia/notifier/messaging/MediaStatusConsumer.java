package io.pmedia.notifier.messaging;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.event.CloudEvent;
import io.pmedia.common.event.Topics;
import io.pmedia.notifier.VideoPush;
import io.pmedia.notifier.config.NotifierConfig;
import io.pmedia.notifier.repository.DeliveryStore;
import io.pmedia.notifier.repository.NewDelivery;
import io.pmedia.notifier.service.DeliveryDispatcher;
import io.smallrye.mutiny.Uni;

/**
 * Turns {@code pmedia.media.status} events that reach {@code SUCCESS} into video push deliveries. A poll's records are
 * inserted in one statement; the unique event id makes a redelivered record insert nothing, so it is never pushed
 * twice. The batch is acknowledged only when that insert has committed, and the throttled commit strategy commits an
 * offset only after every record before it was acknowledged: Kafka never forgets an event PostgreSQL does not hold.
 * While PostgreSQL is unreachable the batch is retried, and consumption waits.
 */
@ApplicationScoped
public class MediaStatusConsumer {

    private static final Logger LOG = Logger.getLogger(MediaStatusConsumer.class);
    static final String SUCCESS = "SUCCESS";

    private final ObjectMapper mapper;
    private final DeliveryStore store;
    private final DeliveryDispatcher dispatcher;
    private final NotifierConfig config;

    public MediaStatusConsumer(ObjectMapper mapper, DeliveryStore store, DeliveryDispatcher dispatcher,
            NotifierConfig config) {
        this.mapper = mapper;
        this.store = store;
        this.dispatcher = dispatcher;
        this.config = config;
    }

    @Incoming("media-status")
    public Uni<Void> onStatuses(List<String> envelopes) {
        List<NewDelivery> pushes = new ArrayList<>();
        for (String envelope : envelopes) {
            NewDelivery push = pushOf(envelope);
            if (push != null) {
                pushes.add(push);
            }
        }
        LOG.debugf("%d media status records, %d pushes", envelopes.size(), pushes.size());
        if (pushes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().deferred(() -> store.insertNew(pushes, config.lease()))
                .onFailure().invoke(failure -> LOG.warnf("cannot store %d webhook deliveries yet (%s); retrying",
                        pushes.size(), failure.getMessage()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely()
                .invoke(claims -> LOG.debugf("%d new deliveries stored", claims.size()))
                .invoke(dispatcher::submit)
                .replaceWithVoid();
    }

    /** The delivery a status event asks for, or null when it asks for none (or cannot be read). */
    NewDelivery pushOf(String envelope) {
        CloudEvent event;
        try {
            event = mapper.readValue(envelope, CloudEvent.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            LOG.errorf("skipping a media status record that is not a CloudEvent: %s", e.getMessage());
            return null;
        }
        if (event.type() != null && !Topics.MEDIA_STATUS_CHANGED.equals(event.type())) {
            return null;
        }
        JsonNode data = event.data();
        if (data == null || !SUCCESS.equals(data.path("status").asText(null))) {
            return null;
        }
        UUID clientId = uuid(data.path("client-id").asText(null));
        String videoUrl = data.path("video-url").asText(null);
        if (event.id() == null || clientId == null || videoUrl == null || videoUrl.isBlank()) {
            LOG.errorf("skipping media status event %s: a SUCCESS needs an id, a client-id and a video-url",
                    event.id());
            return null;
        }
        UUID eventId = eventId(event.id());
        VideoPush push = new VideoPush(data.path("client-request-id").asText(null), data.path("user-id").asText(null),
                videoUrl);
        try {
            return new NewDelivery(webhookId(eventId), eventId, clientId,
                    data.path("service-request-id").asText(event.subject()), mapper.writeValueAsString(push),
                    event.time() == null ? Instant.now() : event.time());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a video push cannot be serialized", e);
        }
    }

    /**
     * The Standard Webhooks {@code webhook-id} of the push for a source event: derived, not random, so every record of
     * the same event names the same delivery, and the unique constraint sees the duplicate.
     */
    public static String webhookId(UUID eventId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("pmedia.video.push:" + eventId).getBytes(StandardCharsets.UTF_8));
            return "msg_" + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Outbox ids are UUIDs; any other producer's id still maps to one stable UUID. */
    static UUID eventId(String id) {
        UUID parsed = uuid(id);
        return parsed != null ? parsed : UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8));
    }

    private static UUID uuid(String value) {
        if (value == null) {
            return null;
        }
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
