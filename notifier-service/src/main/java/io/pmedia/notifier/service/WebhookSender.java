package io.pmedia.notifier.service;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.net.DestinationPolicy;
import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchRequest;
import io.pmedia.common.net.SafeFetcher;
import io.pmedia.notifier.AttemptOutcome;
import io.pmedia.notifier.DeliveryAttempt.AttemptTrigger;
import io.pmedia.notifier.config.NotifierConfig;
import io.pmedia.notifier.repository.AttemptRecord;
import io.smallrye.mutiny.Uni;

/**
 * Makes one signed attempt: a POST of the stored body with the Standard Webhooks headers, through the shared safe
 * fetcher (the host is resolved once and every address checked against the address policy, the connection goes to
 * the checked address, redirects are not followed). Never fails: every way an attempt can end is an outcome.
 */
@ApplicationScoped
public class WebhookSender {

    private final SafeFetcher fetcher;
    private final NotifierConfig config;

    public WebhookSender(SafeFetcher fetcher, NotifierConfig config) {
        this.fetcher = fetcher;
        this.config = config;
    }

    /** One attempt; {@code eventType} goes into the {@code webhook-event-type} header. */
    public Uni<AttemptRecord> send(AttemptTrigger trigger, String webhookId, String eventType, String payload,
            String url, List<String> secrets) {
        return Uni.createFrom().deferred(() -> {
            Instant now = Instant.now();
            long started = System.nanoTime();
            byte[] body = payload.getBytes(StandardCharsets.UTF_8);
            long timestamp = now.getEpochSecond();
            String signature;
            try {
                signature = WebhookSigner.signatureHeader(webhookId, timestamp, body, secrets);
            } catch (IllegalArgumentException e) {
                return Uni.createFrom().item(new AttemptRecord(trigger, url, now,
                        AttemptOutcome.unsigned(e.getMessage())));
            }
            URI uri;
            try {
                uri = DestinationPolicy.parse(url);
            } catch (FetchException e) {
                return Uni.createFrom().item(new AttemptRecord(trigger, url, now, AttemptOutcome.of(e, 0)));
            }
            FetchRequest request = FetchRequest.post(uri, body)
                    .withTimeout(config.timeout())
                    .withMaxRedirects(0)
                    .withHeader("Content-Type", "application/json")
                    .withHeader("webhook-id", webhookId)
                    .withHeader("webhook-event-type", eventType)
                    .withHeader("webhook-timestamp", Long.toString(timestamp))
                    .withHeader("webhook-signature", signature);
            return fetcher.fetch(request)
                    .map(response -> AttemptOutcome.of(response, Instant.now()))
                    .onFailure().recoverWithItem(failure -> AttemptOutcome.of(failure,
                            (System.nanoTime() - started) / 1_000_000))
                    .map(outcome -> new AttemptRecord(trigger, url, now, outcome));
        });
    }
}
