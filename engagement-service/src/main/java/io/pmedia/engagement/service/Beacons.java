package io.pmedia.engagement.service;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.error.Outages;
import io.pmedia.common.limits.TokenBuckets;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.events.ViewerEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * The beacon endpoint's rules (docs/sharing.md, docs/privacy.md): a closed set of event types with sane values, a
 * budget per share page and address, privacy signals obeyed (nothing is recorded under {@code DNT: 1} or
 * {@code Sec-GPC: 1}), bots flagged. An accepted event is on the broker ({@code pmedia.engagement.events}, keyed by
 * the share id) before the beacon's 202; when the broker cannot take it, 503.
 * <p>
 * What counts (issue 33): only a beacon with a valid view token of its page ({@link ViewTokens}), sent by the page
 * itself (not from another site), and a {@code cta-click} only on a page that has a call to action. Anything else is
 * answered 202 like a recorded beacon and dropped (the metric says why): the page behaves the same, and a forger
 * learns nothing. The event's session is the token's page view, whatever the beacon says.
 */
@ApplicationScoped
public class Beacons {

    /** A page view's random id: what the page makes with {@code crypto.randomUUID()}, or similar. */
    private static final Pattern SESSION = Pattern.compile("[A-Za-z0-9_-]{8,64}");
    /** The longest first frame a page reports (10 minutes): a page left in a background tab, not a slow delivery. */
    static final long MAX_FIRST_FRAME_MS = 600_000;

    /**
     * What a page sends. {@code seconds}: how much of the video this page view has played so far; {@code token}: the
     * view token the page was served with; {@code ms} and {@code source}: a {@code first-frame}'s milliseconds from
     * the page's navigation start to its first video frame, and what it came from ({@code stream} or {@code video}).
     */
    public record Beacon(String type, String session, Integer percent, Double seconds, String token, Long ms,
            String source) {
    }

    /** Who sent it, as the gateway passed it on. {@code fetchSite}: the browser's {@code Sec-Fetch-Site}. */
    public record Sender(String address, String userAgent, String dnt, String gpc, String fetchSite) {

        boolean optedOut() {
            return "1".equals(dnt == null ? null : dnt.strip()) || "1".equals(gpc == null ? null : gpc.strip());
        }

        /** A browser says where a request comes from; the page's own beacon is same-origin (embedded or not). */
        boolean fromAnotherSite() {
            return fetchSite != null && !"same-origin".equalsIgnoreCase(fetchSite.strip());
        }
    }

    private final Pages pages;
    private final VisitorHashes visitors;
    private final ViewTokens tokens;
    private final ViewerEventSink events;
    private final MeterRegistry registry;
    /** The budget per share page and address. */
    private final TokenBuckets buckets;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public Beacons(Pages pages, VisitorHashes visitors, ViewTokens tokens, ViewerEventSink events,
            EngagementConfig config, MeterRegistry registry) {
        this.pages = pages;
        this.visitors = visitors;
        this.tokens = tokens;
        this.events = events;
        this.buckets = new TokenBuckets(config.beacons().burst(), config.beacons().perSecond());
        this.registry = registry;
    }

    /**
     * Accepts one beacon: true when it was recorded, false when the viewer asked not to be (both are 202 for the
     * page). 404 for a page that does not play (unknown, revoked, expired: the same answer), 400 for a beacon the
     * page would never send (thrown at once, as is 429 over the budget), 503 when the broker cannot take it.
     * <p>
     * When all a beacon needs is at hand (its page cached, the day's salt loaded, the producer delivering), it goes to
     * the producer from the calling thread, without a lookup and without Mutiny: this is the platform's busiest path
     * (docs/decisions.md, "The beacon route"). Otherwise it waits for what it needs, and goes through the channel's
     * emitter. The outcome completes on the producer's thread, or on the caller's.
     */
    public CompletionStage<Boolean> accept(String shareId, Beacon beacon, Sender sender) {
        ViewerEvent.Kind kind = checked(beacon);
        var wait = buckets.take(shareId + "|" + sender.address());
        if (wait.isPresent()) {
            count("refused", "rate");
            throw new ApiException(ErrorCode.RATE_LIMITED, "too many events from this page, retry later", wait.get());
        }
        Optional<SharedVideoRow> known = pages.liveIfKnown(shareId);
        if (known != null) {
            return record(known.orElse(null), kind, beacon, sender);
        }
        return pages.live(shareId).subscribeAsCompletionStage()
                .thenCompose(video -> record(video, kind, beacon, sender));
    }

    /**
     * {@link #accept} once the page is known: its token checked (at once when the day's key is at hand, else once it
     * is loaded), then {@link #counted}.
     */
    private CompletionStage<Boolean> record(SharedVideoRow found, ViewerEvent.Kind kind, Beacon beacon,
            Sender sender) {
        SharedVideoRow video = recordable(found, kind, beacon, sender);
        if (video == null) {
            return CompletableFuture.completedFuture(false);
        }
        Instant now = Instant.now();
        ViewTokens.Checked known = tokens.checkIfKnown(video.shareId, beacon.token(), now);
        if (known != null) {
            return counted(video, kind, beacon, sender, known);
        }
        return tokens.check(video.shareId, beacon.token(), now).subscribeAsCompletionStage()
                .thenCompose(checked -> counted(video, kind, beacon, sender, checked));
    }

    /**
     * A beacon with its token checked: dropped without a valid one; else straight to the producer when it delivers
     * and the visitor's hash is at hand; otherwise the hash first (which may load the day's salt), then the emitter.
     */
    private CompletionStage<Boolean> counted(SharedVideoRow video, ViewerEvent.Kind kind, Beacon beacon,
            Sender sender, ViewTokens.Checked token) {
        if (!token.isValid()) {
            count("dropped", "token-" + token.refusal());
            return CompletableFuture.completedFuture(false);
        }
        boolean bot = Bots.isBot(sender.userAgent());
        String visitor = bot ? null : visitors.ofIfKnown(sender.address(), video.clientId);
        if (events.delivering() && (visitor != null || bot)) {
            return sendNow(event(video, kind, beacon, token.pageView(), visitor, bot));
        }
        Uni<String> hash = bot ? Uni.createFrom().nullItem() : visitors.of(sender.address(), video.clientId);
        return hash.flatMap(known -> publish(event(video, kind, beacon, token.pageView(), known, bot)))
                .invoke(() -> count("accepted", bot ? "bot" : kind.wire()))
                .replaceWith(true)
                .subscribeAsCompletionStage();
    }

    /**
     * The video a beacon is recorded for: 404 for a page that does not play, null when the viewer asked not to be
     * counted or the beacon cannot count (sent from another site, a click on a page without a call to action), 400
     * for more seconds than the video could have played.
     */
    private SharedVideoRow recordable(SharedVideoRow video, ViewerEvent.Kind kind, Beacon beacon, Sender sender) {
        if (video == null) {
            count("refused", "not-found");
            throw Pages.notFound();
        }
        if (sender.optedOut()) {
            count("dropped", "privacy");
            return null;
        }
        if (beacon.seconds() != null && video.durationSeconds != null
                && beacon.seconds() > video.durationSeconds * 4 + 30) {
            count("refused", "invalid");
            throw ApiException.validation("field 'seconds' is more than this video could have played");
        }
        if (sender.fromAnotherSite()) {
            count("dropped", "cross-site");
            return null;
        }
        if (kind == ViewerEvent.Kind.cta_click && (video.ctaUrl == null || video.ctaUrl.isBlank())) {
            count("dropped", "no-cta");
            return null;
        }
        return video;
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
            throw ApiException.validation(
                    "field 'type' must be one of [view, play, progress, complete, cta-click, first-frame]");
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
        checkFirstFrame(kind, beacon);
        return kind;
    }

    /** A {@code first-frame} has its milliseconds and source; no other beacon has either. */
    private void checkFirstFrame(ViewerEvent.Kind kind, Beacon beacon) {
        if (kind != ViewerEvent.Kind.first_frame) {
            if (beacon.ms() != null || beacon.source() != null) {
                count("refused", "invalid");
                throw ApiException.validation(
                        "field '" + (beacon.ms() != null ? "ms" : "source") + "' is for first-frame events only");
            }
            return;
        }
        if (beacon.ms() == null || beacon.ms() < 0 || beacon.ms() > MAX_FIRST_FRAME_MS) {
            count("refused", "invalid");
            throw ApiException.validation(
                    "field 'ms' must be a whole number of milliseconds from 0 to " + MAX_FIRST_FRAME_MS);
        }
        if (ViewerEvent.FrameSource.ofWire(beacon.source()) == null) {
            count("refused", "invalid");
            throw ApiException.validation("field 'source' must be one of [stream, video] for a first-frame event");
        }
    }

    /** The event of a beacon, counted under its token's page view ({@code session}). */
    private static ViewerEvent event(SharedVideoRow video, ViewerEvent.Kind kind, Beacon beacon, String session,
            String visitor, boolean bot) {
        return new ViewerEvent(video.shareId, video.clientId, video.serviceRequestId, video.taskId, video.campaignId,
                video.templateId, kind, session, visitor, beacon.percent(), beacon.seconds(), bot, Instant.now(),
                beacon.ms() == null ? null : beacon.ms().intValue(), ViewerEvent.FrameSource.ofWire(beacon.source()));
    }

    /** On the broker, keyed by the share id, before the answer; an unreachable broker is 503 with Retry-After. */
    private Uni<Void> publish(ViewerEvent event) {
        return events.publish(event).onFailure().transform(failure -> unavailable());
    }

    /** {@link #publish} from the calling thread, while the producer delivers: counted when the broker has it. */
    private CompletionStage<Boolean> sendNow(ViewerEvent event) {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        events.sendNow(event).whenComplete((ignored, failure) -> {
            if (failure == null) {
                count("accepted", event.bot() ? "bot" : event.kind().wire());
                answer.complete(true);
            } else {
                answer.completeExceptionally(unavailable());
            }
        });
        return answer;
    }

    private ApiException unavailable() {
        count("refused", "unavailable");
        return new ApiException(ErrorCode.SERVICE_UNAVAILABLE, "events cannot be recorded right now, retry later",
                Outages.RETRY_AFTER);
    }

    @Scheduled(every = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void forgetIdleBuckets() {
        buckets.forgetFull();
    }

    private void count(String outcome, String reason) {
        counters.computeIfAbsent(outcome + " " + reason,
                ignored -> registry.counter("pmedia_engagement_beacons_total", "outcome", outcome, "reason", reason))
                .increment();
    }
}
