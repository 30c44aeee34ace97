package io.pmedia.engagement.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.local.LocalBucket;
import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.error.Outages;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.events.EventCodec;
import io.pmedia.events.ViewerEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * The beacon endpoint's rules (docs/sharing.md, docs/privacy.md): a closed set of event types with sane values, a
 * budget per share page and address, privacy signals obeyed (nothing is recorded under {@code DNT: 1} or
 * {@code Sec-GPC: 1}), bots flagged. An accepted event is on the broker ({@code pmedia.engagement.events}, keyed by
 * the share id) before the beacon's 202; when the broker cannot take it, 503.
 */
@ApplicationScoped
public class Beacons {

    /** A page view's random id: what the page makes with {@code crypto.randomUUID()}, or similar. */
    private static final Pattern SESSION = Pattern.compile("[A-Za-z0-9_-]{8,64}");
    private static final String SOURCE = "/engagement-service/beacons";

    /** What a page sends. {@code seconds}: how much of the video this page view has played so far. */
    public record Beacon(String type, String session, Integer percent, Double seconds) {
    }

    /** Who sent it, as the gateway passed it on. */
    public record Sender(String address, String userAgent, String dnt, String gpc) {

        boolean optedOut() {
            return "1".equals(dnt == null ? null : dnt.strip()) || "1".equals(gpc == null ? null : gpc.strip());
        }
    }

    private final Pages pages;
    private final VisitorHashes visitors;
    private final EventCodec codec;
    private final MutinyEmitter<String> emitter;
    private final EngagementConfig.Beacons limits;
    private final MeterRegistry registry;
    private final Map<String, LocalBucket> buckets = new ConcurrentHashMap<>();

    public Beacons(Pages pages, VisitorHashes visitors, EventCodec codec,
            @Channel("viewer-events") MutinyEmitter<String> emitter, EngagementConfig config,
            MeterRegistry registry) {
        this.pages = pages;
        this.visitors = visitors;
        this.codec = codec;
        this.emitter = emitter;
        this.limits = config.beacons();
        this.registry = registry;
    }

    /**
     * Accepts one beacon: true when it was recorded, false when the viewer asked not to be (both are 202 for the
     * page). 404 for a page that does not play (unknown, revoked, expired: the same answer), 400 for a beacon the
     * page would never send, 429 over the budget.
     */
    public Uni<Boolean> accept(String shareId, Beacon beacon, Sender sender) {
        ViewerEvent.Kind kind = checked(beacon);
        var wait = take(shareId + "|" + sender.address());
        if (wait.isPresent()) {
            count("refused", "rate");
            throw new ApiException(ErrorCode.RATE_LIMITED, "too many events from this page, retry later", wait.get());
        }
        return pages.live(shareId).flatMap(video -> {
            if (video == null) {
                count("refused", "not-found");
                throw Pages.notFound();
            }
            if (sender.optedOut()) {
                count("dropped", "privacy");
                return Uni.createFrom().item(false);
            }
            if (beacon.seconds() != null && video.durationSeconds != null
                    && beacon.seconds() > video.durationSeconds * 4 + 30) {
                count("refused", "invalid");
                throw ApiException.validation("field 'seconds' is more than this video could have played");
            }
            boolean bot = Bots.isBot(sender.userAgent());
            Uni<String> visitor = kind == ViewerEvent.Kind.view && !bot
                    ? visitors.of(sender.address(), sender.userAgent(), video.clientId)
                    : Uni.createFrom().nullItem();
            return visitor.flatMap(hash -> publish(event(video, kind, beacon, hash, bot)))
                    .invoke(() -> count("accepted", bot ? "bot" : kind.wire()))
                    .replaceWith(true);
        });
    }

    /** A bot's page load (a crawler, an unfurler): counted apart as a bot view, never as a view. */
    public Uni<Void> botPageLoad(SharedVideoRow video, String userAgent) {
        return publish(new ViewerEvent(video.shareId, video.clientId, video.serviceRequestId, video.taskId,
                video.campaignId, video.templateId, ViewerEvent.Kind.view, "page-" + java.util.UUID.randomUUID(),
                null, null, null, true, Instant.now()))
                .invoke(() -> count("accepted", "bot"))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    private ViewerEvent.Kind checked(Beacon beacon) {
        if (beacon == null) {
            count("refused", "invalid");
            throw ApiException.badRequest("request body must be a JSON object");
        }
        ViewerEvent.Kind kind = beacon.type() == null ? null : ViewerEvent.Kind.ofWire(beacon.type());
        if (kind == null) {
            count("refused", "invalid");
            throw ApiException.validation("field 'type' must be one of [view, play, progress, complete, cta-click]");
        }
        if (beacon.session() == null || !SESSION.matcher(beacon.session()).matches()) {
            count("refused", "invalid");
            throw ApiException.validation("field 'session' must be 8 to 64 letters, digits, '-' or '_'");
        }
        if (kind == ViewerEvent.Kind.progress
                && (beacon.percent() == null || !java.util.List.of(25, 50, 75).contains(beacon.percent()))) {
            count("refused", "invalid");
            throw ApiException.validation("field 'percent' must be 25, 50 or 75 for a progress event");
        }
        if (kind != ViewerEvent.Kind.progress && beacon.percent() != null) {
            count("refused", "invalid");
            throw ApiException.validation("field 'percent' is for progress events only");
        }
        if (beacon.seconds() != null && (beacon.seconds().isNaN() || beacon.seconds() < 0)) {
            count("refused", "invalid");
            throw ApiException.validation("field 'seconds' must be a number of seconds, at least 0");
        }
        return kind;
    }

    private static ViewerEvent event(SharedVideoRow video, ViewerEvent.Kind kind, Beacon beacon, String visitor,
            boolean bot) {
        return new ViewerEvent(video.shareId, video.clientId, video.serviceRequestId, video.taskId, video.campaignId,
                video.templateId, kind, beacon.session(), visitor, beacon.percent(), beacon.seconds(), bot,
                Instant.now());
    }

    /** On the broker, keyed by the share id, before the answer; an unreachable broker is 503 with Retry-After. */
    private Uni<Void> publish(ViewerEvent event) {
        Message<String> message = Message.of(codec.json(SOURCE, event)).addMetadata(
                OutgoingKafkaRecordMetadata.<String>builder().withKey(event.shareId()).build());
        return emitter.sendMessage(message).ifNoItem().after(Duration.ofSeconds(5)).fail()
                .onFailure().transform(failure -> {
                    count("refused", "unavailable");
                    return new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                            "events cannot be recorded right now, retry later", Outages.RETRY_AFTER);
                });
    }

    private Optional<Duration> take(String key) {
        LocalBucket bucket = buckets.computeIfAbsent(key, ignored -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(limits.burst())
                        .refillGreedy(1, Duration.ofNanos(Math.max(1, Math.round(1e9 / limits.perSecond()))))
                        .build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        return probe.isConsumed() ? Optional.empty() : Optional.of(Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetIdleBuckets() {
        buckets.values().removeIf(bucket -> bucket.getAvailableTokens() >= limits.burst());
    }

    private void count(String outcome, String reason) {
        registry.counter("pmedia_engagement_beacons_total", "outcome", outcome, "reason", reason).increment();
    }
}
