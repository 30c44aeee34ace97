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
}
