package io.pmedia.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.client.model.VideoPush;

class WebhooksTest {

    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final String BODY = "{\"client-request-id\":\"r-1\",\"user-id\":\"u-1\",\"video-url\":\"https://s/v.mp4\"}";

    @Test
    void theSpecificationsExampleSignatureIsWhatWeCompute() {
        // The same vector is checked against the official standardwebhooks package in sdk/typescript/test.
        assertThat(Webhooks.signature(SECRET, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L, "{\"test\": 2432232314}"))
                .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void aSignedPushVerifiesAndIsReadAsAVideoPush() {
        long now = Instant.now().getEpochSecond();
        Map<String, List<String>> headers = Map.of("Webhook-Id", List.of("msg_1"), "webhook-timestamp",
                List.of(Long.toString(now)), "webhook-signature",
                List.of("v1,bm90LXRoaXMtb25l " + Webhooks.signature(SECRET, "msg_1", now, BODY)));
        VideoPush push = Webhooks.verify(headers, BODY, SECRET);
        assertThat(push.getClientRequestId()).isEqualTo("r-1");
        assertThat(push.getUserId()).isEqualTo("u-1");
        assertThat(push.getVideoUrl()).isEqualTo("https://s/v.mp4");
    }

    @Test
    void aChangedBodyAnotherSecretAStaleTimestampOrAMissingHeaderDoesNotVerify() {
        long at = 1_800_000_000L;
        Map<String, String> headers = Map.of("webhook-id", "msg_1", "webhook-timestamp", Long.toString(at),
                "webhook-signature", Webhooks.signature(SECRET, "msg_1", at, BODY));
        Clock onTime = Clock.fixed(Instant.ofEpochSecond(at + 299), ZoneOffset.UTC);
        assertThat(Webhooks.verify(headers, BODY, SECRET, VideoPush.class, onTime).getUserId()).isEqualTo("u-1");
        assertThatThrownBy(() -> Webhooks.verify(headers, BODY.replace("u-1", "u-2"), SECRET, VideoPush.class, onTime))
                .isInstanceOf(WebhookVerificationException.class).hasMessageContaining("no matching signature");
        assertThatThrownBy(() -> Webhooks.verify(headers, BODY, "whsec_YW5vdGhlciBzZWNyZXQ=", VideoPush.class,
                onTime)).isInstanceOf(WebhookVerificationException.class);
        assertThatThrownBy(() -> Webhooks.verify(headers, BODY, SECRET, VideoPush.class,
                Clock.fixed(Instant.ofEpochSecond(at + 301), ZoneOffset.UTC)))
                .isInstanceOf(WebhookVerificationException.class).hasMessageContaining("too old");
        assertThatThrownBy(() -> Webhooks.verify(headers, BODY, SECRET, VideoPush.class,
                Clock.fixed(Instant.ofEpochSecond(at - 301), ZoneOffset.UTC)))
                .isInstanceOf(WebhookVerificationException.class).hasMessageContaining("too new");
        assertThatThrownBy(() -> Webhooks.verify(Map.of("webhook-id", "msg_1"), BODY, SECRET))
                .isInstanceOf(WebhookVerificationException.class).hasMessageContaining("missing header");
    }

    static Map<String, String> signed(String body, String type) {
        long now = Instant.now().getEpochSecond();
        Map<String, String> headers = new java.util.HashMap<>(Map.of("webhook-id", "msg_1", "webhook-timestamp",
                Long.toString(now), "webhook-signature", Webhooks.signature(SECRET, "msg_1", now, body)));
        if (type != null) {
            headers.put("webhook-event-type", type);
        }
        return headers;
    }

    static final String ENGAGEMENT = "{\"event-type\":\"%s\",\"share-id\":\"uve\",\"transaction-id\":\"c977\","
            + "\"task-id\":null,\"row\":null,\"campaign-id\":null,\"user-id\":\"u-1\",\"views\":1,"
            + "\"completions\":0,\"cta-clicks\":2,\"at\":\"2026-11-27T13:26:42.61Z\"}";

    @Test
    void everyEventTypeVerifiesAndComesBackWithItsTypeAndItsTypedBody() {
        WebhookEvent push = Webhooks.verifyEvent(signed(BODY, "video.push"), BODY, SECRET);
        assertThat(push.getType()).isEqualTo(WebhookEvent.Type.VIDEO_PUSH);
        assertThat(push.getWebhookId()).isEqualTo("msg_1");
        assertThat(push.videoPush().getVideoUrl()).isEqualTo("https://s/v.mp4");
        assertThat(Webhooks.verifyEvent(signed(BODY, null), BODY, SECRET).getType())
                .isEqualTo(WebhookEvent.Type.VIDEO_PUSH);
        String test = "{\"client-request-id\":\"pmedia-test-1\",\"user-id\":\"u\",\"video-url\":\"https://s/t.mp4\"}";
        assertThat(Webhooks.verifyEvent(signed(test, "test"), test, SECRET).videoPush().getClientRequestId())
                .isEqualTo("pmedia-test-1");
        String task = "{\"task-id\":\"6f1c5b3a-0000-4000-8000-000000000001\",\"status\":\"COMPLETED\","
                + "\"file-path\":\"s3://b/o.csv\",\"total-count\":3,\"processed\":3,\"message\":null}";
        WebhookEvent ended = Webhooks.verifyEvent(signed(task, "batch.task.ended"), task, SECRET);
        assertThat(ended.getType()).isEqualTo(WebhookEvent.Type.BATCH_TASK_ENDED);
        assertThat(ended.taskStatus().getTotalCount()).isEqualTo(3);
        assertThatThrownBy(ended::videoPush).isInstanceOf(IllegalStateException.class);
        String tryOn = "{\"request-id\":\"9a2b5b3a-0000-4000-8000-000000000001\",\"status\":\"SUCCESS\","
                + "\"generated-output\":\"https://s/t.png\",\"message\":null}";
        WebhookEvent tried = Webhooks.verifyEvent(signed(tryOn, "tryon.request.ended"), tryOn, SECRET);
        assertThat(tried.tryOnStatus().getGeneratedOutput()).isEqualTo("https://s/t.png");
        for (WebhookEvent.Type type : List.of(WebhookEvent.Type.VIDEO_VIEWED, WebhookEvent.Type.VIDEO_COMPLETED,
                WebhookEvent.Type.CTA_CLICKED)) {
            String body = String.format(ENGAGEMENT, type.wire());
            WebhookEvent event = Webhooks.verifyEvent(signed(body, type.wire()), body, SECRET);
            assertThat(event.getType()).isEqualTo(type);
            assertThat(event.engagement().shareId).isEqualTo("uve");
            assertThat(event.engagement().ctaClicks).isEqualTo(2);
            assertThat(event.engagement().at).isEqualTo(Instant.parse("2026-11-27T13:26:42.61Z"));
        }
        String rendered = "{\"event-type\":\"video.rendered\",\"share-id\":\"uve\",\"transaction-id\":null,"
                + "\"task-id\":\"6f1c\",\"row\":7,\"campaign-id\":\"spring\",\"user-id\":\"u-7\",\"views\":0,"
                + "\"completions\":0,\"cta-clicks\":0,\"at\":\"2026-11-30T09:00:00Z\","
                + "\"share-url\":\"https://p/v/uve\",\"video-url\":\"https://p/v/uve/video.mp4\",\"message\":null}";
        WebhookEvent video = Webhooks.verifyEvent(signed(rendered, "video.rendered"), rendered, SECRET);
        assertThat(video.getType()).isEqualTo(WebhookEvent.Type.VIDEO_RENDERED);
        assertThat(video.render().taskId).isEqualTo("6f1c");
        assertThat(video.render().row).isEqualTo(7);
        assertThat(video.render().shareUrl).isEqualTo("https://p/v/uve");
        assertThat(video.render().videoUrl).isEqualTo("https://p/v/uve/video.mp4");
        assertThat(video.render().message).isNull();
        assertThatThrownBy(video::engagement).isInstanceOf(IllegalStateException.class);
        String failed = "{\"event-type\":\"video.render-failed\",\"share-id\":\"uvf\",\"transaction-id\":\"c977\","
                + "\"task-id\":null,\"row\":null,\"campaign-id\":null,\"user-id\":\"u-1\",\"views\":1,"
                + "\"completions\":0,\"cta-clicks\":0,\"at\":\"2026-11-30T09:00:00Z\","
                + "\"share-url\":\"https://p/v/uvf\",\"video-url\":null,\"message\":\"the render failed\"}";
        WebhookEvent lost = Webhooks.verifyEvent(signed(failed, null), failed, SECRET);
        assertThat(lost.getType()).isEqualTo(WebhookEvent.Type.VIDEO_RENDER_FAILED);
        assertThat(lost.render().transactionId).isEqualTo("c977");
        assertThat(lost.render().views).isEqualTo(1);
        assertThat(lost.render().videoUrl).isNull();
        assertThat(lost.render().message).isEqualTo("the render failed");
        assertThat(lost.render().at).isEqualTo(Instant.parse("2026-11-30T09:00:00Z"));
    }

    @Test
    void aWebhookEventTypeHeaderThatDisagreesWithTheSignedBodyOrAnUnknownEventDoesNotVerify() {
        assertThatThrownBy(() -> Webhooks.verifyEvent(signed(BODY, "batch.task.ended"), BODY, SECRET))
                .isInstanceOf(WebhookVerificationException.class);
        String unknown = "{\"event-type\":\"video.shared\",\"share-id\":\"x\"}";
        assertThatThrownBy(() -> Webhooks.verifyEvent(signed(unknown, null), unknown, SECRET))
                .isInstanceOf(PmediaException.class);
    }
}
