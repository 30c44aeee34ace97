package io.pmedia.common.limits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TokenBucketsTest {

    @Test
    void aKeyGetsItsBurstThenWaitsWhileOtherKeysGoOn() {
        // One token a minute: nothing refills while the test runs.
        TokenBuckets buckets = new TokenBuckets(3, 1.0 / 60);
        for (int call = 0; call < 3; call++) {
            assertThat(buckets.take("203.0.113.7")).isEmpty();
        }
        assertThat(buckets.take("203.0.113.7")).hasValueSatisfying(wait -> assertThat(wait.toSeconds())
                .isBetween(1L, 60L));
        assertThat(buckets.take("198.51.100.1")).isEmpty();
    }

    @Test
    void forgettingKeepsTheBucketsThatAreStillSpent() {
        TokenBuckets buckets = new TokenBuckets(1, 1.0 / 60);
        assertThat(buckets.take("spent")).isEmpty();
        buckets.forgetFull();
        assertThat(buckets.take("spent")).isPresent();
    }
}
