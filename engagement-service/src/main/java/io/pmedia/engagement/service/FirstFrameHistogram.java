package io.pmedia.engagement.service;

import java.util.LinkedHashMap;
import java.util.Map;

import io.pmedia.events.ViewerEvent.FrameSource;

/**
 * Time to first frame as the rollup keeps it (docs/sharing.md, "Rollups"; docs/decisions.md, "Time to first frame
 * as a histogram"): page views counted per source and per bucket of milliseconds, the buckets fixed by
 * {@link #BOUNDS}. Histograms add up, so a template's or a campaign's p50 and p95 are read from the sum of its
 * videos' days, which percentiles of each video could never give. A percentile is the upper bound of the bucket it
 * falls in: {@code p95-ms} 2000 reads "95 % of first frames within 2 s".
 */
public final class FirstFrameHistogram {

    /**
     * The buckets' upper bounds in milliseconds, each bucket above the previous bound up to its own (both goals of
     * issue 37, p50 within 1 s and p95 within 2 s, are bounds). The last is the longest first frame a page may report.
     */
    public static final int[] BOUNDS = {250, 500, 750, 1000, 1500, 2000, 3000, 4000, 8000, 600_000};

    private final long[][] frames = new long[FrameSource.values().length][BOUNDS.length];

    private static int bucket(int ms) {
        for (int i = 0; i < BOUNDS.length - 1; i++) {
            if (ms <= BOUNDS[i]) {
                return i;
            }
        }
        return BOUNDS.length - 1;
    }

    /** One page view's first frame. */
    public void add(FrameSource source, int ms) {
        frames[source.ordinal()][bucket(ms)]++;
    }

    /** {@code count} first frames of {@code source} in the bucket whose upper bound is {@code bound}, as stored. */
    public void add(FrameSource source, int bound, long count) {
        for (int i = 0; i < BOUNDS.length; i++) {
            if (BOUNDS[i] == bound) {
                frames[source.ordinal()][i] += count;
                return;
            }
        }
        throw new IllegalArgumentException("no first-frame bucket ends at " + bound + " ms");
    }

    public void add(FirstFrameHistogram other) {
        for (int s = 0; s < frames.length; s++) {
            for (int i = 0; i < BOUNDS.length; i++) {
                frames[s][i] += other.frames[s][i];
            }
        }
    }

    /** What a bucket holds, for storing: called for every non-empty bucket. */
    @FunctionalInterface
    public interface Bucket {
        void accept(FrameSource source, int bound, long count);
    }

    public void forEachBucket(Bucket bucket) {
        for (FrameSource source : FrameSource.values()) {
            for (int i = 0; i < BOUNDS.length; i++) {
                if (frames[source.ordinal()][i] > 0) {
                    bucket.accept(source, BOUNDS[i], frames[source.ordinal()][i]);
                }
            }
        }
    }

    /** The first frames of {@code source}; of both when it is null. */
    public long count(FrameSource source) {
        long count = 0;
        for (long bucket : counts(source)) {
            count += bucket;
        }
        return count;
    }

    /**
     * The {@code quantile} (0.5 for the p50) of {@code source}'s first frames (both sources when null), by nearest
     * rank, as the upper bound of its bucket; null without first frames.
     */
    public Integer percentile(FrameSource source, double quantile) {
        long[] counts = counts(source);
        long total = count(source);
        if (total == 0) {
            return null;
        }
        long rank = Math.max(1, (long) Math.ceil(quantile * total));
        long seen = 0;
        for (int i = 0; i < BOUNDS.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return BOUNDS[i];
            }
        }
        return BOUNDS[BOUNDS.length - 1];
    }

    /** {@code source}'s buckets by upper bound ("250", "500", ...), every bucket, in order. */
    public Map<String, Long> buckets(FrameSource source) {
        Map<String, Long> buckets = new LinkedHashMap<>();
        for (int i = 0; i < BOUNDS.length; i++) {
            buckets.put(Integer.toString(BOUNDS[i]), frames[source.ordinal()][i]);
        }
        return buckets;
    }

    private long[] counts(FrameSource source) {
        if (source != null) {
            return frames[source.ordinal()];
        }
        long[] both = new long[BOUNDS.length];
        for (long[] of : frames) {
            for (int i = 0; i < BOUNDS.length; i++) {
                both[i] += of[i];
            }
        }
        return both;
    }
}
