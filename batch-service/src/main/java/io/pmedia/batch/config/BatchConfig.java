package io.pmedia.batch.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "pmedia.batch")
public interface BatchConfig {

    /** How often the dispatcher reads files, submits rows and completes tasks (also woken by new tasks). */
    @WithDefault("1s")
    Duration dispatchEvery();

    /**
     * Most rows of all tasks submitted to the render workers and not yet answered, per replica's view of the whole
     * service. Small, so that realtime requests, which share the workers, wait behind a few batch renders at most.
     */
    @WithDefault("2")
    int window();

    /** Largest input file read, in bytes. */
    @WithDefault("52428800")
    long maxFileBytes();

    /** Most rows a task may ask for ({@code row-count}). */
    @WithDefault("100000")
    int maxRows();

    /** Time limit of one row's render. */
    @WithDefault("120s")
    Duration renderTimeLimit();

    /** A submitted row with no result after this long is submitted again (its job or result was lost). */
    @WithDefault("10m")
    Duration resubmitAfter();

    /** Submissions of one row before it fails. */
    @WithDefault("3")
    int maxAttempts();

    /** Whether this replica dispatches (every replica may: rows and tasks are claimed with SKIP LOCKED). */
    @WithDefault("true")
    boolean dispatcherEnabled();
}
