package io.pmedia.notifier.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class WebhookSignerTest {

    private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final long SPEC_TIMESTAMP = 1614265330;
    private static final byte[] SPEC_BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);

    @Test
    void reproducesTheStandardWebhooksTestVector() {
        assertThat(WebhookSigner.signatureHeader(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY, List.of(SPEC_SECRET)))
                .isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    @Test
    void signsWithEverySecretInOrderSpaceSeparated() {
        String other = "whsec_" + java.util.Base64.getEncoder().encodeToString("another key, 24 bytes!!!".getBytes());
        String header = WebhookSigner.signatureHeader(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY, List.of(SPEC_SECRET, other));
        assertThat(header.split(" ")).hasSize(2);
        assertThat(header).startsWith("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE= v1,");
    }

    @Test
    void skipsUnusableSecretsAndRefusesToSendUnsigned() {
        assertThat(WebhookSigner.signatureHeader(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY,
                List.of("whsec_***not base64***", SPEC_SECRET))).isEqualTo(
                        "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assertThatThrownBy(() -> WebhookSigner.signatureHeader(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WebhookSigner.signatureHeader(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY,
                List.of("whsec_"))).isInstanceOf(IllegalArgumentException.class);
    }
}
