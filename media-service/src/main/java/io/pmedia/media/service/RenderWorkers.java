package io.pmedia.media.service;

/**
 * How many render workers take realtime jobs: the port through which the admission of renders on view
 * ({@link OnViewRenders}) reads the size of the realtime pool. messaging/RealtimeWorkers answers it from what the
 * broker says of the workers' consumer group.
 */
public interface RenderWorkers {

    /** Workers holding partitions of the realtime lane at the last description (-1: none yet, or not described). */
    int workers();
}
