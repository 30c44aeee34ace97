package io.pmedia.notifier.service;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.client.WebhookRegistration;
import io.pmedia.common.error.ApiException;
import io.pmedia.common.error.ErrorCode;
import io.pmedia.common.paging.Cursor;
import io.pmedia.common.paging.Page;
import io.pmedia.common.paging.PageRequest;
import io.pmedia.notifier.AttemptOutcome;
import io.pmedia.notifier.DeliveryAttempt;
import io.pmedia.notifier.DeliveryAttempt.AttemptTrigger;
import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.DeliveryStatus;
import io.pmedia.notifier.VideoPush;
import io.pmedia.notifier.WebhookDelivery;
import io.pmedia.notifier.client.WebhookRegistrations;
import io.pmedia.notifier.repository.AttemptRecord;
import io.pmedia.notifier.repository.DeliveryStore;
import io.smallrye.mutiny.Uni;

/**
 * The vendor's own tools: reading its deliveries, replaying one, sending a test event. Explicit sends use the
 * registration as the gateway has it now (not the cache: a vendor who just changed its URL tests the new one), and a
 * success re-enables an endpoint disabled by 410 Gone and closes its breaker.
 */
@ApplicationScoped
public class WebhookDeliveries {

    /** What a webhook-id is ({@code msg_} and 32 hex digits): paths and cursors naming anything else name nothing. */
    public static final Pattern WEBHOOK_ID = Pattern.compile("msg_[0-9a-f]{32}");

    /** A delivery with its attempts. */
    public record DeliveryWithAttempts(WebhookDelivery delivery, List<DeliveryAttempt> attempts) {
    }

    /** The outcome of a test event. */
    public record TestOutcome(String webhookId, AttemptRecord attempt) {
    }

    private final DeliveryStore store;
    private final WebhookRegistrations registrations;
    private final WebhookSender sender;
    private final DisabledEndpoints disabled;
    private final DeliveryDispatcher dispatcher;
    private final ObjectMapper mapper;

    public WebhookDeliveries(DeliveryStore store, WebhookRegistrations registrations, WebhookSender sender,
            DisabledEndpoints disabled, DeliveryDispatcher dispatcher, ObjectMapper mapper) {
        this.store = store;
        this.registrations = registrations;
        this.sender = sender;
        this.disabled = disabled;
        this.dispatcher = dispatcher;
        this.mapper = mapper;
    }

    /**
     * The operator's replay of any client's delivery (a dead letter once its endpoint is fixed): the same as the
     * client's own replay, as that client.
     */
    public Uni<DeliveryWithAttempts> replayAsOperator(String webhookId) {
        return store.owner(webhookId)
                .onItem().ifNull().failWith(() -> ApiException.notFound("no webhook delivery '" + webhookId + "'"))
                .flatMap(clientId -> replay(clientId, webhookId));
    }

    /** A page of the client's deliveries (every client's when {@code clientId} is null), newest first, each with its attempts. */
    public Uni<Page<DeliveryWithAttempts>> list(UUID clientId, DeliveryStore.Filter filter, Instant to,
            PageRequest page) {
        Cursor bound = page.upperBound(to);
        return store.page(clientId, filter, bound.time(), bound.id(WEBHOOK_ID), page.fetchSize()).flatMap(rows -> {
            Page<WebhookDelivery> shown = page.page(rows,
                    delivery -> new Cursor(delivery.createdAt(), delivery.webhookId()));
            return store.attemptsOf(shown.items().stream().map(WebhookDelivery::webhookId).toList())
                    .map(attempts -> shown.map(d -> new DeliveryWithAttempts(d,
                            attempts.getOrDefault(d.webhookId(), List.of()))));
        });
    }

    /**
     * Sends every FAILED or EXHAUSTED delivery of the client made in {@code [since, until)} once more, with the same
     * webhook-id, through the schedule (so endpoint limits and breakers apply): each gets one attempt, and goes back
     * to what it was if that fails. How many were queued.
     */
    public Uni<Integer> recover(UUID clientId, Instant since, Instant until) {
        return store.recover(clientId, since, until);
    }

    /** One delivery of the client with its attempts; 404 when it is not the client's. */
    public Uni<DeliveryWithAttempts> get(UUID clientId, String webhookId) {
        return store.find(clientId, webhookId)
                .onItem().ifNull().failWith(() -> ApiException.notFound("no webhook delivery '" + webhookId + "'"))
                .flatMap(delivery -> store.attemptsOf(List.of(webhookId))
                        .map(attempts -> new DeliveryWithAttempts(delivery,
                                attempts.getOrDefault(webhookId, List.of()))));
    }

    /** Sends a finished delivery once more (same webhook-id, a new attempt); no automatic retries follow. */
    @WithSpan
    public Uni<DeliveryWithAttempts> replay(UUID clientId, String webhookId) {
        return store.find(clientId, webhookId)
                .onItem().ifNull().failWith(() -> ApiException.notFound("no webhook delivery '" + webhookId + "'"))
                .flatMap(delivery -> {
                    if (delivery.status() == DeliveryStatus.PENDING) {
                        throw ApiException.conflict("webhook delivery '" + webhookId
                                + "' is still being retried" + (delivery.nextAttemptAt() == null
                                        ? ""
                                        : " (next attempt at " + delivery.nextAttemptAt() + ")")
                                + "; replay it once it is done");
                    }
                    return currentRegistration(clientId)
                            .flatMap(registration -> sender.send(AttemptTrigger.REPLAY, webhookId,
                                    delivery.kind().wire(), delivery.payload(), registration.webhookUrl().trim(),
                                    registration.signingSecrets(Instant.now())))
                            .call(attempt -> afterExplicit(clientId, attempt))
                            .call(attempt -> store.recordReplay(clientId, webhookId, attempt))
                            .flatMap(attempt -> get(clientId, webhookId));
                });
    }

    /** Sends a signed test event to the registered URL now and reports what the endpoint answered. */
    @WithSpan
    public Uni<TestOutcome> test(UUID clientId) {
        String webhookId = "msg_" + UUID.randomUUID().toString().replace("-", "");
        String payload = testPayload();
        return currentRegistration(clientId)
                .flatMap(registration -> sender.send(AttemptTrigger.TEST, webhookId, DeliveryKind.TEST.wire(), payload,
                        registration.webhookUrl().trim(), registration.signingSecrets(Instant.now())))
                .call(attempt -> afterExplicit(clientId, attempt))
                .call(attempt -> store.insertTest(webhookId, clientId, payload, attempt))
                .map(attempt -> new TestOutcome(webhookId, attempt));
    }

    private Uni<WebhookRegistration> currentRegistration(UUID clientId) {
        return registrations.fresh(clientId)
                .onFailure().transform(failure -> new ApiException(ErrorCode.SERVICE_UNAVAILABLE,
                        "the client registry cannot be read right now; try again shortly",
                        java.time.Duration.ofSeconds(5)))
                .map(found -> found.filter(WebhookRegistration::hasWebhook)
                        .orElseThrow(() -> ApiException.conflict("no webhook-url is registered for this client;"
                                + " set it with PUT /webhooks/endpoint")));
    }

    private Uni<Void> afterExplicit(UUID clientId, AttemptRecord attempt) {
        AttemptOutcome outcome = attempt.outcome();
        if (outcome.delivered()) {
            dispatcher.endpointAnswered(attempt.url());
            return disabled.enable(clientId, attempt.url());
        }
        if (outcome.verdict() == AttemptOutcome.Verdict.GONE) {
            return disabled.disable(clientId, attempt.url(), "answered 410 Gone to a " + attempt.trigger().wire());
        }
        return Uni.createFrom().voidItem();
    }

    private String testPayload() {
        try {
            return mapper.writeValueAsString(new VideoPush("pmedia-test-" + UUID.randomUUID(), "pmedia-test-user",
                    "https://pmedia.io/webhook-test.mp4"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
