package io.pmedia.media.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of the realtime media service and its render workers. */
@ConfigMapping(prefix = "pmedia.media")
public interface MediaConfig {

    /** Where renders and the asset cache live (work files of a render are removed when it ends). */
    Path workDir();

    Render render();

    Assets assets();

    interface Render {

        /** A render taking longer ends FAILURE. */
        @WithDefault("120s")
        Duration timeLimit();

        /** Directory of ffmpeg and ffprobe; empty: the PATH. */
        Optional<String> ffmpegDirectory();

        @WithDefault("/usr/share/fonts/truetype/dejavu")
        Path fontDirectory();

        /** A request still PROCESSING this long after its last attempt has its job submitted again. */
        @WithDefault("10m")
        Duration resubmitAfter();

        /** How often the lost-render sweep runs (read by the scheduler as {@code pmedia.media.render.sweep-every}). */
        @WithDefault("60s")
        Duration sweepEvery();

        /** When the first sweep runs after startup. */
        @WithDefault("30s")
        Duration sweepDelay();

        /** Submissions of one request before it ends FAILURE. */
        @WithDefault("3")
        int maxAttempts();

        /**
         * Partitions the job topic should have at least: the most render workers (replicas x
         * {@code PMEDIA_RENDER_CONCURRENCY}) that can share the work.
         */
        @WithDefault("12")
        int jobPartitions();
    }

    interface Assets {

        @WithDefault("50M")
        io.quarkus.runtime.configuration.MemorySize maxImageSize();

        @WithDefault("200M")
        io.quarkus.runtime.configuration.MemorySize maxVideoSize();

        @WithDefault("30s")
        Duration fetchTimeout();

        /** A cached asset younger than this is used without asking its server again. */
        @WithDefault("10m")
        Duration fresh();

        /** The asset cache's size bound; least recently used assets go first. */
        @WithDefault("2G")
        io.quarkus.runtime.configuration.MemorySize cacheSize();
    }
}
