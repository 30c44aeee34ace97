package io.pmedia.batch.config;

import java.time.Duration;
import java.util.OptionalInt;

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

    /** How rows are fed to the batch lane (docs/batch.md, "Rendering" and "The bound"). */
    Lane lane();

    /** How long a replica holds a task while it reads the file or writes the output; another takes over after. */
    @WithDefault("10m")
    Duration lease();

    /** Least time between two progress events of a task (a status event goes out at every status change too). */
    @WithDefault("10s")
    Duration progressEvery();

    /** Render on first view (docs/batch.md, "Render on first view"). */
    OnView onView();

    interface OnView {
        /**
         * On-view renders admitted to the realtime lane at once, per render slot of the pool (the workers' group,
         * {@code lane.slots-per-worker} each): beyond it a row opened waits in PostgreSQL, first opened first admitted,
         * and its page keeps saying "being prepared", so a burst of opens never queues in front of vendors' realtime
         * requests.
         */
        @WithDefault("2")
        int rendersPerSlot();
    }

    interface Lane {

        /**
         * Rows in flight (submitted, not answered) per render slot of the pool: one rendering, one lined up at its
         * worker (a worker holds one batch job per slot beside the one it renders, docs/media.md "Render lanes"), and
         * one on its way to the worker while the answer of the one rendering comes back. Everything beyond waits in
         * batch-service, where priority, fair share and deadlines decide (docs/batch.md, "The bound").
         */
        @WithDefault("3")
        int rowsPerSlot();

        /**
         * Rendering each slot has lined up at least, where renders are short: the time an answer takes to come back
         * and the slot's next row to reach its worker, so that even a tiny render never leaves a slot waiting for
         * batch-service (rows per slot: at least 2 plus this over the mean render time; 0: {@code rows-per-slot} only).
         */
        @WithDefault("500ms")
        Duration ahead();

        /**
         * Render slots of each worker: the workers' {@code PMEDIA_RENDER_CONCURRENCY} (media-service's
         * {@code pmedia.media.render.lanes.slots}), read from the same variable.
         */
        @WithDefault("1")
        int slotsPerWorker();

        /** The pool's render slots, when fixed: the workers' group is then not described. */
        OptionalInt slots();

        /** The render workers' consumer group: its members holding partitions of the batch lane are the pool. */
        @WithDefault("pmedia-render-workers")
        String workersGroup();

        /** How often the workers' group is described (workers come and go with the autoscaler). */
        @WithDefault("10s")
        Duration workersEvery();

        /**
         * Answers within this period show how many slots were busy with batch rows (their render time over the
         * period): the bound never falls below {@code rows-per-slot} times that, so a pool larger than the workers'
         * group shows (a replica not allowed to describe it, a wrong {@code slots-per-worker}) is still used whole.
         */
        @WithDefault("60s")
        Duration busyOver();

        /** Most rows in flight of all tasks together, whatever the pool: a cap on the bound. */
        @WithDefault("2000")
        int maxInFlight();

        /** Most rows in flight of one task. */
        @WithDefault("1000")
        int maxInFlightPerTask();
    }
}
