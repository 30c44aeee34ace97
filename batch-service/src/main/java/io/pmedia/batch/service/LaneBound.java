package io.pmedia.batch.service;

import io.pmedia.batch.config.BatchConfig;

/**
 * How many rows the batch lane may hold in flight (docs/batch.md, "The bound"): per render slot, {@code rows-per-slot}
 * (one rendering, one lined up at the worker, one on its way), or more where renders are so short that that many would
 * not cover {@code lane.ahead} of rendering (the time an answer takes to come back and its slot's next row to go out);
 * for every slot of the pool, or every slot seen busy with batch rows lately when that is more; at most
 * {@code max-in-flight}. Everything beyond waits in batch-service, where priority, fair share and deadlines decide.
 * Pure: the dispatcher gives it the pool and what the answers of the last {@code lane.busy-over} say.
 */
public final class LaneBound {

    private LaneBound() {
    }

    /**
     * @param lane the lane's settings
     * @param poolSlots the pool's render slots as the workers' group shows them (at least one worker's)
     * @param answered rows answered in the last {@code lane.busy-over}
     * @param renderedMillis their render time together
     */
    public static int of(BatchConfig.Lane lane, int poolSlots, long answered, long renderedMillis) {
        long over = Math.max(1, lane.busyOver().toMillis());
        // rounded: a render that began before the period counts whole in it (and never more slots than rows)
        int busySlots = (int) Math.min(answered, Math.round((double) renderedMillis / over));
        int perSlot = lane.rowsPerSlot();
        if (!lane.ahead().isZero() && answered > 0 && renderedMillis > 0) {
            double meanRender = (double) renderedMillis / answered;
            perSlot = (int) Math.max(perSlot, 2 + Math.ceil(lane.ahead().toMillis() / meanRender));
        }
        long bound = (long) Math.max(1, Math.max(poolSlots, busySlots)) * perSlot;
        return (int) Math.min(lane.maxInFlight(), bound);
    }
}
