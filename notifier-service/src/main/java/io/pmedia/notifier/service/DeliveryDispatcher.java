package io.pmedia.notifier.service;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.pmedia.common.client.WebhookRegistration;
import io.pmedia.common.concurrent.BackgroundWork;
import io.pmedia.common.tracing.Traces;
import io.pmedia.notifier.AttemptOutcome;
import io.pmedia.notifier.DeliveryAttempt.AttemptTrigger;
import io.pmedia.notifier.DeliveryStatus;
import io.pmedia.notifier.client.WebhookRegistrations;
import io.pmedia.notifier.config.NotifierConfig;
import io.pmedia.notifier.repository.AttemptRecord;
import io.pmedia.notifier.repository.AttemptRecorder;
import io.pmedia.notifier.repository.Claim;
import io.pmedia.notifier.repository.DeliveryStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Moves pending deliveries to their endpoints. New deliveries arrive straight from the consumer (already leased to
 * this replica, so the first attempt leaves at once); due retries, and work a crashed replica left behind, are
 * claimed from PostgreSQL every poll interval. Each delivery is looked up in the client registry and passes its
 * endpoint's {@link EndpointGate}: per endpoint a concurrency limit, a queue and a breaker, so a slow or dead endpoint
 * only ever holds its own share and never delays another client's pushes. Every outcome is written back before the
 * delivery leaves this replica's hands; nothing about a pending delivery lives only in memory.
 */
@ApplicationScoped
public class DeliveryDispatcher {

    private static final Logger LOG = Logger.getLogger(DeliveryDispatcher.class);

    /** A claimed delivery on its way to a known endpoint. */
    record Job(Claim claim, String url, List<String> secrets) {
    }

    private final Vertx vertx;
    private final NotifierConfig config;
    private final DeliveryStore store;
    private final AttemptRecorder recorder;
    private final WebhookRegistrations registrations;
    private final DisabledEndpoints disabled;
    private final WebhookSender sender;
    private final RetryPolicy retries;
    private final DeadLetters deadLetters;
    private final MeterRegistry meters;
    private final Traces traces;
    private final Map<String, EndpointGate<Job>> gates = new ConcurrentHashMap<>();
    private final Map<String, Counter> outcomeCounters = new ConcurrentHashMap<>();
    private final Map<AttemptOutcome.Verdict, Timer> attemptTimers = new EnumMap<>(AttemptOutcome.Verdict.class);
    private final AtomicBoolean polling = new AtomicBoolean();
    private volatile boolean running;
    /** Attempts under way and state writes not yet done: what a shutdown waits for before the pool closes. */
    private final AtomicInteger unfinished = new AtomicInteger();
    private long pollTimer = -1;
    private long sweepTimer = -1;

    public DeliveryDispatcher(Vertx vertx, NotifierConfig config, DeliveryStore store, AttemptRecorder recorder,
            WebhookRegistrations registrations,
            DisabledEndpoints disabled, WebhookSender sender, RetryPolicy retries, DeadLetters deadLetters,
            MeterRegistry meters, Traces traces) {
        this.vertx = vertx;
        this.traces = traces;
        this.config = config;
        this.store = store;
        this.recorder = recorder;
        this.registrations = registrations;
        this.disabled = disabled;
        this.sender = sender;
        this.retries = retries;
        this.deadLetters = deadLetters;
        this.meters = meters;
        for (AttemptOutcome.Verdict verdict : AttemptOutcome.Verdict.values()) {
            attemptTimers.put(verdict, Timer.builder("pmedia.webhook.attempt")
                    .description("Webhook attempts by verdict, with the endpoint's response time")
                    .tag("verdict", verdict.name().toLowerCase(Locale.ROOT)).register(meters));
        }
    }

    void onStart(@Observes StartupEvent event) {
        start();
    }

    /**
     * SIGTERM: stop taking work, give back what waits in memory, and let the attempts in flight finish and be
     * recorded before the database pool closes (within the attempt timeout), so a restarted or surviving replica
     * takes over at once instead of after the leases run out.
     */
    void onStop(@Observes ShutdownEvent event) {
        stop();
        long deadline = System.nanoTime() + config.timeout().plusSeconds(5).toNanos();
        while (unfinished.get() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        if (unfinished.get() > 0) {
            LOG.warnf("stopping with %d deliveries not recorded; their leases run out and they are retried",
                    unfinished.get());
        }
    }

    /** Starts polling for due deliveries (and, at start-up, whatever a previous run left pending). */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        long every = Math.max(10, config.pollInterval().toMillis());
        pollTimer = vertx.setPeriodic(0, every, id -> poll());
        sweepTimer = vertx.setPeriodic(60_000, id -> gates.entrySet().removeIf(entry -> entry.getValue().idle()));
    }

    /**
     * Stops taking work: polling ends, and deliveries waiting in memory are given back to PostgreSQL so that any
     * replica can take them at once. Attempts in flight finish and are recorded.
     */
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        vertx.cancelTimer(pollTimer);
        vertx.cancelTimer(sweepTimer);
        for (EndpointGate<Job> gate : gates.values()) {
            for (Job job : gate.drain()) {
                write(store.release(job.claim(), Duration.ZERO, null), job.claim());
            }
        }
        gates.clear();
    }

    public boolean running() {
        return running;
    }

    /** New deliveries the consumer has just committed, leased to this replica. */
    public void submit(List<Claim> claims) {
        if (!running) {
            return; // their lease runs out and a poll (here after a restart, or on another replica) takes them
        }
        claims.forEach(this::dispatch);
    }

    /** Claims due deliveries until none is left; one poll at a time per replica. */
    void poll() {
        if (!running || !polling.compareAndSet(false, true)) {
            return;
        }
        // a claim the database client never answers must not stop polling for good
        store.claimDue(config.claimBatch(), config.lease()).ifNoItem().after(config.lease())
                .failWith(() -> new IllegalStateException("no answer from the database within "
                        + config.lease().toSeconds() + " s"))
                .subscribe().with(claims -> {
                    polling.set(false);
                    claims.forEach(this::dispatch);
                    if (claims.size() >= config.claimBatch()) {
                        vertx.runOnContext(ignored -> poll());
                    }
                }, failure -> {
                    polling.set(false);
                    LOG.warnf("cannot claim due webhook deliveries: %s", failure.getMessage());
                });
    }

    private void dispatch(Claim claim) {
        registrations.lookup(claim.clientId()).subscribe().with(
                registration -> route(claim, registration),
                failure -> {
                    LOG.warnf("client registry unavailable for %s: %s", claim.webhookId(), failure.getMessage());
                    write(store.release(claim, config.registryRetryDelay(),
                            "client registry unavailable; retrying without using an attempt"), claim);
                });
    }

    private void route(Claim claim, Optional<WebhookRegistration> found) {
        // a recovered delivery that cannot be sent goes back to what it was; any other ends SKIPPED
        DeliveryStatus unsent = claim.recoverFrom() != null ? claim.recoverFrom() : DeliveryStatus.SKIPPED;
        if (found.isEmpty()) {
            count("skipped");
            write(store.finish(claim, unsent, "the client does not exist", null), claim);
            return;
        }
        WebhookRegistration registration = found.get();
        if (!registration.hasWebhook()) {
            count("skipped");
            write(store.finish(claim, unsent, "the client has no webhook-url", null), claim);
            return;
        }
        if (claim.kind().eventType() != null && !registration.subscribes(claim.kind().eventType())) {
            count("skipped");
            write(store.finish(claim, unsent, "the endpoint does not subscribe to " + claim.kind().wire(), null),
                    claim);
            return;
        }
        String url = registration.webhookUrl().trim();
        if (disabled.isDisabled(claim.clientId(), url)) {
            count("disabled");
            write(store.finish(claim, claim.recoverFrom() != null ? claim.recoverFrom() : DeliveryStatus.FAILED,
                    "not sent: the endpoint is disabled since it answered"
                            + " 410 Gone; a successful POST /webhooks/test enables it again",
                    url), claim);
            return;
        }
        EndpointGate<Job> gate = gates.computeIfAbsent(url, key -> new EndpointGate<>(
                config.endpoint().maxConcurrency(), config.endpoint().maxQueue(),
                config.circuitBreaker().failureThreshold(), config.circuitBreaker().openFor().toNanos(),
                System::nanoTime));
        apply(gate, gate.admit(new Job(claim, url, registration.signingSecrets(Instant.now()))));
    }

    private void apply(EndpointGate<Job> gate, EndpointGate.Decision<Job> decision) {
        decision.run().forEach(job -> attempt(gate, job));
        decision.reject().forEach(job -> conclude(job, new AttemptRecord(job.claim().recoverFrom() != null
                ? AttemptTrigger.RECOVER
                : AttemptTrigger.SCHEDULED, job.url(), Instant.now(),
                AttemptOutcome.circuitOpen(gate.consecutiveFailures()))));
        decision.overflow().forEach(job -> write(store.release(job.claim(), config.endpoint().overflowDelay(),
                null), job.claim()));
    }

    private void attempt(EndpointGate<Job> gate, Job job) {
        unfinished.incrementAndGet();
        leased(job).chain(owned -> owned ? send(job) : Uni.createFrom().nullItem())
                .subscribe().with(attempt -> {
                    boolean endpointFailed = attempt != null && attempt.outcome().endpointFailure();
                    apply(gate, gate.complete(!endpointFailed));
                    if (attempt != null) {
                        conclude(job, attempt);
                    }
                    unfinished.decrementAndGet();
                }, failure -> {
                    apply(gate, gate.complete(true));
                    LOG.errorf(failure, "attempt of %s failed unexpectedly", job.claim().webhookId());
                    unfinished.decrementAndGet();
                });
    }

    /** Still ours? A job that waited long in the queue renews its lease before it is sent. */
    /**
     * One scheduled attempt, as a span of the trace of the event it delivers (however much later a retry runs). The
     * trace context itself is not sent to the vendor's endpoint.
     */
    private Uni<AttemptRecord> send(Job job) {
        Claim claim = job.claim();
        Span span = traces.builder("webhook " + claim.kind().wire(), SpanKind.CLIENT, claim.traceParent())
                .setAttribute("pmedia.webhook.id", claim.webhookId())
                .setAttribute("pmedia.webhook.attempt", claim.attempts() + 1L)
                .setAttribute("http.request.method", "POST")
                .startSpan();
        return sender.send(claim.recoverFrom() != null ? AttemptTrigger.RECOVER : AttemptTrigger.SCHEDULED,
                claim.webhookId(), claim.kind().wire(), claim.payload(), job.url(), job.secrets())
                .onItemOrFailure().invoke((attempt, failure) -> {
                    if (attempt != null) {
                        AttemptOutcome outcome = attempt.outcome();
                        span.setAttribute("pmedia.webhook.verdict", outcome.verdict().name());
                        if (outcome.statusCode() != null) {
                            span.setAttribute("http.response.status_code", (long) outcome.statusCode());
                        }
                        if (!outcome.delivered()) {
                            span.setStatus(StatusCode.ERROR, outcome.error() != null
                                    ? outcome.error()
                                    : outcome.verdict().name());
                        }
                    }
                    Traces.end(span, failure);
                });
    }

    private Uni<Boolean> leased(Job job) {
        long remaining = job.claim().leaseExpiresAtNanos() - System.nanoTime();
        if (remaining > config.timeout().plusSeconds(10).toNanos()) {
            return Uni.createFrom().item(true);
        }
        return store.renew(job.claim(), config.lease()).invoke(owned -> {
            if (!owned) {
                LOG.debugf("%s was taken over by another replica; not sending", job.claim().webhookId());
            }
        });
    }

    /** Writes what an attempt came to: delivered, final, disabled, retry later, or exhausted. */
    private void conclude(Job job, AttemptRecord attempt) {
        Claim claim = job.claim();
        AttemptOutcome outcome = attempt.outcome();
        attemptTimers.get(outcome.verdict())
                .record(outcome.latencyMillis() == null ? 0 : outcome.latencyMillis(), TimeUnit.MILLISECONDS);
        if (claim.recoverFrom() != null) {
            concludeRecovery(job, attempt);
            return;
        }
        switch (outcome.verdict()) {
            case DELIVERED -> {
                count("delivered");
                write(recorder.record(claim, attempt, DeliveryStatus.DELIVERED, null), claim);
            }
            case FINAL -> {
                count("failed");
                write(recorder.record(claim, attempt, DeliveryStatus.FAILED, null), claim);
            }
            case GONE -> {
                count("gone");
                write(recorder.record(claim, attempt, DeliveryStatus.FAILED, null)
                        .call(ignored -> disabled.disable(claim.clientId(), job.url(),
                                "answered 410 Gone to " + claim.webhookId())),
                        claim);
            }
            case RETRY -> {
                Optional<Duration> delay = retries.nextDelay(claim.attempts() + 1, outcome.retryAfter());
                if (delay.isPresent()) {
                    count("retrying");
                    write(recorder.record(claim, attempt, DeliveryStatus.PENDING, delay.get()), claim);
                } else {
                    count("exhausted");
                    write(BackgroundWork.call(vertx, () -> deadLetters.exhaust(claim, attempt)), claim);
                }
            }
        }
    }

    /**
     * A recovered delivery had its one attempt: delivered, or back to what it was (FAILED, EXHAUSTED) with no retries
     * and no second dead letter; a 410 Gone disables the endpoint as always.
     */
    private void concludeRecovery(Job job, AttemptRecord attempt) {
        Claim claim = job.claim();
        AttemptOutcome outcome = attempt.outcome();
        if (outcome.delivered()) {
            count("delivered");
            write(recorder.record(claim, attempt, DeliveryStatus.DELIVERED, null), claim);
            return;
        }
        count("recovery-failed");
        Uni<Boolean> recorded = recorder.record(claim, attempt, claim.recoverFrom(), null);
        write(outcome.verdict() == AttemptOutcome.Verdict.GONE
                ? recorded.call(ignored -> disabled.disable(claim.clientId(), job.url(),
                        "answered 410 Gone to " + claim.webhookId()))
                : recorded, claim);
    }

    /** A vendor's test or replay reached the endpoint: close its breaker here too. */
    public void endpointAnswered(String url) {
        EndpointGate<Job> gate = gates.get(url);
        if (gate != null) {
            apply(gate, gate.reset());
        }
    }

    private void write(Uni<?> write, Claim claim) {
        unfinished.incrementAndGet();
        write.eventually(unfinished::decrementAndGet).subscribe().with(ignored -> {
        }, failure -> LOG.warnf("could not record the state of %s (its lease runs out and it is retried): %s",
                claim.webhookId(), failure.getMessage()));
    }

    private void count(String outcome) {
        outcomeCounters.computeIfAbsent(outcome,
                name -> meters.counter("pmedia.webhook.deliveries", "outcome", name)).increment();
    }
}
