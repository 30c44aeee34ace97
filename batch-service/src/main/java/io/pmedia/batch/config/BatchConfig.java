package io.pmedia.batch.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of batch-service (docs/batch.md, "Configuration"). */
@ConfigMapping(prefix = "pmedia.batch")
public interface BatchConfig {

    /** How often the dispatcher submits rows and moves tasks along (also woken by new tasks and results). */
    @WithDefault("1s")
    Duration dispatchEvery();

    /** Largest input file, in bytes (checked at acceptance and again while reading). */
    @WithDefault("268435456")
    long maxFileBytes();

    /** Most rows a task may ask for ({@code row-count}). */
    @WithDefault("1000000")
    int maxRows();

    /** Most columns of an input file. */
    @WithDefault("100")
    int maxColumns();

    /** Longest cell of an input file, in characters; a longer one makes the file unusable. */
    @WithDefault("10000")
    int maxCellChars();

    /** How long an upload URL of {@code POST /media/task/uploads} is valid. */
    @WithDefault("15m")
    Duration uploadUrlTtl();

    /** Time limit of one row's render. */
    @WithDefault("120s")
    Duration renderTimeLimit();

    /** A submitted row with no result after this long is submitted again (its job or result was lost). */
    @WithDefault("10m")
    Duration resubmitAfter();

    /** Submissions of one row before it fails. */
    @WithDefault("3")
    int maxAttempts();

    /** Whether this replica dispatches (every replica may: rows and tasks are claimed with SKIP LOCKED or leases). */
    @WithDefault("true")
    boolean dispatcherEnabled();

    /** How rows are fed to the batch lane (docs/batch.md, "Rendering"). */
    Lane lane();

    /** How long a replica holds a task while it reads the file or writes the output; another takes over after. */
    @WithDefault("10m")
    Duration lease();

    /** Least time between two progress events of a task (a status event goes out at every status change too). */
    @WithDefault("10s")
    Duration progressEvery();

    interface Lane {

        /**
         * Most rows in flight (submitted, not answered) of all tasks together: the cap of the window. The window itself
         * follows the pace of the render workers (see {@link #queue()}).
         */
        @WithDefault("2000")
        int maxInFlight();

        /** Most rows in flight of one task. */
        @WithDefault("1000")
        int maxInFlightPerTask();

        /** The window before the pace of the workers is known (and its floor). */
        @WithDefault("16")
        int minInFlight();

        /**
         * Work kept waiting on the lane beyond the rows being rendered, in render time: enough that no worker waits for
         * batch-service, little enough that a new task or a higher priority takes its turn within about this long.
         */
        @WithDefault("30s")
        Duration queue();

        /** Rows answered within this period measure the pace of the workers. */
        @WithDefault("60s")
        Duration paceOver();
    }
}
