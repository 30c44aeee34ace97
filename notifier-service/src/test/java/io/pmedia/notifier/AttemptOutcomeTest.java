package io.pmedia.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.pmedia.common.net.FetchException;
import io.pmedia.common.net.FetchResponse;
import io.pmedia.notifier.AttemptOutcome.Verdict;

class AttemptOutcomeTest {

    private static AttemptOutcome answer(int status, Map<String, List<String>> headers) {
        return AttemptOutcome.of(new FetchResponse(status, headers, new byte[0], null, 0,
                URI.create("https://hooks.example.com/"), Duration.ofMillis(12)), Instant.now());
    }

    @Test
    void anyTwoHundredIsSuccess() {
        for (int status : new int[]{200, 201, 202, 204, 299}) {
            assertThat(answer(status, Map.of()).verdict()).isEqualTo(Verdict.DELIVERED);
        }
    }

    @Test
    void tooManyRequestsAndServerErrorsAreRetriedWithTheirRetryAfter() {
        AttemptOutcome throttled = answer(429, Map.of("retry-after", List.of("30")));
        assertThat(throttled.verdict()).isEqualTo(Verdict.RETRY);
        assertThat(throttled.retryAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(throttled.endpointFailure()).as("a throttling endpoint is alive").isFalse();
        for (int status : new int[]{500, 502, 503, 504}) {
            assertThat(answer(status, Map.of()).verdict()).isEqualTo(Verdict.RETRY);
            assertThat(answer(status, Map.of()).endpointFailure()).isTrue();
        }
    }

    @Test
    void goneDisablesAndOtherClientErrorsAndRedirectsAreFinal() {
        assertThat(answer(410, Map.of()).verdict()).isEqualTo(Verdict.GONE);
        for (int status : new int[]{400, 401, 403, 404, 408, 413, 422, 301, 302, 307}) {
            assertThat(answer(status, Map.of()).verdict()).as("status %d", status).isEqualTo(Verdict.FINAL);
        }
    }

    @Test
    void noAnswerIsRetriedUnlessThePolicyRefusedTheAddress() {
        assertThat(AttemptOutcome.of(new FetchException(FetchException.Reason.TIMEOUT, "slow"), 15_000).verdict())
                .isEqualTo(Verdict.RETRY);
        assertThat(AttemptOutcome.of(new FetchException(FetchException.Reason.CONNECTION, "refused"), 1).verdict())
                .isEqualTo(Verdict.RETRY);
        assertThat(AttemptOutcome.of(new FetchException(FetchException.Reason.REFUSED_ADDRESS, "private"), 1)
                .verdict()).isEqualTo(Verdict.FINAL);
        assertThat(AttemptOutcome.of(new FetchException(FetchException.Reason.BAD_URL, "ftp"), 1).verdict())
                .isEqualTo(Verdict.FINAL);
    }

    @Test
    void readsRetryAfterAsSecondsOrAsAnHttpDate() {
        Instant now = Instant.parse("2026-11-22T08:00:00Z");
        assertThat(AttemptOutcome.parseRetryAfter("120", now)).isEqualTo(Duration.ofSeconds(120));
        assertThat(AttemptOutcome.parseRetryAfter(" 7 ", now)).isEqualTo(Duration.ofSeconds(7));
        assertThat(AttemptOutcome.parseRetryAfter("Sun, 22 Nov 2026 08:01:30 GMT", now))
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(AttemptOutcome.parseRetryAfter("Sun, 22 Nov 2026 07:00:00 GMT", now)).isEqualTo(Duration.ZERO);
        assertThat(AttemptOutcome.parseRetryAfter("soon", now)).isNull();
        assertThat(AttemptOutcome.parseRetryAfter("-5", now)).isNull();
        assertThat(AttemptOutcome.parseRetryAfter(null, now)).isNull();
    }
}
