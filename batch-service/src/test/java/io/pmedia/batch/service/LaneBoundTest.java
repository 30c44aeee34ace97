package io.pmedia.batch.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import io.pmedia.batch.config.BatchConfig;

/** How many rows the batch lane holds in flight (docs/batch.md, "The bound"), with the default settings. */
class LaneBoundTest {

    private static final BatchConfig.Lane LANE = new BatchConfig.Lane() {
        public int rowsPerSlot() {
            return 3;
        }

        public Duration ahead() {
            return Duration.ofMillis(500);
        }

        public int slotsPerWorker() {
            return 1;
        }

        public OptionalInt slots() {
            return OptionalInt.empty();
        }

        public String workersGroup() {
            return "pmedia-render-workers";
        }

        public Duration workersEvery() {
            return Duration.ofSeconds(10);
        }

        public Duration busyOver() {
            return Duration.ofSeconds(60);
        }

        public int maxInFlight() {
            return 2000;
        }

        public int maxInFlightPerTask() {
            return 1000;
        }
    };

    @Test
    void aFewRowsPerSlotOfThePoolBeforeAnythingIsAnswered() {
        assertThat(LaneBound.of(LANE, 1, 0, 0)).isEqualTo(3);
        assertThat(LaneBound.of(LANE, 24, 0, 0)).isEqualTo(72);
    }

    @Test
    void rendersOfSecondsKeepThreeRowsPerSlot() {
        // one slot busy all minute with 2.5 s renders (the greeting sample on 2 cores)
        assertThat(LaneBound.of(LANE, 1, 24, 60_000)).isEqualTo(3);
    }

    @Test
    void shortRendersGetEnoughRowsPerSlotToCoverTheAnswersWay() {
        // 80 ms renders: 2 + 500 ms / 80 ms = 9 rows per slot, so no slot waits for the next row
        assertThat(LaneBound.of(LANE, 2, 1500, 120_000)).isEqualTo(18);
    }

    @Test
    void slotsSeenBusyCountWhenTheGroupShowsFewer() {
        // the group could not be described (one worker assumed), yet 6 slots rendered batch rows all minute
        assertThat(LaneBound.of(LANE, 1, 144, 360_000)).isEqualTo(18);
        // a render that began before the minute does not make a second slot of one
        assertThat(LaneBound.of(LANE, 1, 25, 62_500)).isEqualTo(3);
    }

    @Test
    void neverAboveMaxInFlight() {
        assertThat(LaneBound.of(LANE, 1000, 0, 0)).isEqualTo(2000);
    }
}
