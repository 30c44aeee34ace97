package io.pmedia.batch.service;

/**
 * How many rows the render workers can start soon: the port through which the dispatcher and on-view admission read
 * the size of the render pool. messaging/RenderPool answers it from what the broker says of the workers' group.
 */
public interface RenderSlots {

    /** Render slots of the pool that take batch rows; at least one worker's. */
    int slots();

    /** Workers seen on the batch lane at the last description (-1: none yet, or a fixed count configured). */
    int workers();
}
