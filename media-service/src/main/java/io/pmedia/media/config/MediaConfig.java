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

    Speech speech();

    OnView onView();

    /**
     * Admission of realtime requests rendered on view (docs/media.md, "Render on first view"): a burst of first views
     * goes onto the realtime lane up to a bound per render worker; the others wait, claimed, first opened first.
     */
    interface OnView {

        /** Whether this process admits them (the API role does; render workers do not). */
        @WithDefault("true")
        boolean admissionEnabled();

        /** Renders on view of realtime requests in flight (admitted, not ended) per render worker. */
        @WithDefault("2")
        int rendersPerWorker();

        /**
         * The render workers, when fixed: the workers' group ({@code render.lanes.group}) is then not described.
         * Unset: the members of that group holding partitions of the realtime lane, as the broker says (at least one).
         */
        java.util.OptionalInt workers();

        /** How often the workers' group is described. */
        @WithDefault("10s")
        Duration workersEvery();

        /** How often waiting first views are looked at, besides each claim and each end of one in flight. */
        @WithDefault("1s")
        Duration admitEvery();
    }

    /** The speech engine of speech layers (docs/templates.md "Speech"). */
    interface Speech {

        /** {@code espeak} (built in) or {@code http} (a provider with the OpenAI speech API's shape). */
        @WithDefault("espeak")
        String engine();

        /** The provider of the {@code http} engine. */
        Http http();

        interface Http {

            /** The API base; {@code /audio/speech} below it. */
            @WithDefault("https://api.openai.com/v1")
            String baseUrl();

            /** Sent as {@code Authorization: Bearer}; required when the engine is {@code http}. */
            Optional<String> apiKey();

            @WithDefault("tts-1")
            String model();
        }

        /** The espeak-ng program; a name on the PATH or a path. */
        @WithDefault("espeak-ng")
        String espeak();

        /** A speech taking longer fails its render. */
        @WithDefault("30s")
        Duration timeLimit();
    }

    interface Render {

        /** A render taking longer ends FAILURE. */
        @WithDefault("120s")
        Duration timeLimit();

        /**
         * How long a render keeps trying the object store while it cannot be reached (reading the vendor's own
         * assets, storing the outputs) before the job fails: a store outage is the platform's, not the vendor's.
         */
        @WithDefault("3m")
        Duration storeRetryFor();

        /** Directory of ffmpeg and ffprobe; empty: the PATH. */
        Optional<String> ffmpegDirectory();

        /**
         * How much lower than the service FFmpeg and FFprobe run ({@code nice}, 0 to 19; 0: as the service). A render
         * is background work: where it shares the cores with the API (one media process, the local stack) the API's
         * requests come first (docs/decisions.md, "Renders yield the CPU").
         */
        @WithDefault("10")
        int nice();

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

        /** Whether this process runs the lost-render sweep (the API role does; render workers do not). */
        @WithDefault("true")
        boolean sweepEnabled();

        /** Submissions of one request before it ends FAILURE. */
        @WithDefault("3")
        int maxAttempts();

        /**
         * Partitions the job topic should have at least: the most render workers (replicas x
         * {@code PMEDIA_RENDER_CONCURRENCY}) that can share the work.
         */
        @WithDefault("12")
        int jobPartitions();

        /**
         * Whether this service creates the job topics, or grows them to {@link #jobPartitions()}, at start
         * ({@code PMEDIA_MEDIA_RENDER_TOPIC_SETUP}). Off in Kubernetes, where the topics are {@code KafkaTopic}s and
         * the service's KafkaUser may not alter them.
         */
        @WithDefault("true")
        boolean topicSetup();

        /** The render workers of this replica and the two lanes they take jobs from (docs/media.md). */
        Lanes lanes();

        /**
         * The chunk cache: the chunks (and the sound) that do not depend on the request are rendered once per
         * template version and reused (docs/media.md, "Chunk cache"; the name is the segment cache's, which it
         * replaced).
         */
        @WithDefault("true")
        boolean segmentCache();

        /** The local copy of the chunk cache on each worker; least recently used pieces go first. */
        @WithDefault("2G")
        io.quarkus.runtime.configuration.MemorySize segmentCacheSize();
    }

    interface Lanes {

        /** Whether this process renders at all ({@code PMEDIA_MEDIA_ROLE=api} switches it off). */
        @WithDefault("true")
        boolean enabled();

        /**
         * Renders at once in this replica ({@code PMEDIA_RENDER_CONCURRENCY}), each slot taking realtime jobs first.
         * FFmpeg is CPU-bound and uses every core: about one per two cores.
         */
        @WithDefault("1")
        int slots();

        /** The consumer group of every render worker of every replica, for both lanes. */
        @WithDefault("pmedia-render-workers")
        String group();

        /** At shutdown, how long the renders running may take to finish before the process stops anyway. */
        @WithDefault("150s")
        Duration stopWait();
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
