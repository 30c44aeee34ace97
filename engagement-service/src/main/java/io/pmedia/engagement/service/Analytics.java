package io.pmedia.engagement.service;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.pmedia.common.error.ApiException;
import io.pmedia.engagement.SharedVideoRow;
import io.pmedia.engagement.repository.AnalyticsStore;
import io.pmedia.engagement.repository.VideoStore;
import io.pmedia.events.ViewerEvent.FrameSource;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The vendor's analytics (docs/sharing.md): one video, or a template's or campaign's days with totals and the
 * watch-time funnel (0/25/50/75/100 %), always of the caller's own videos: another vendor's request, template or
 * campaign reads as not found, exactly like one without videos.
 */
@ApplicationScoped
public class Analytics {

    /** The longest range a template or campaign report covers. */
    static final int MAX_DAYS = 400;
    /**
     * How many counters a rollup row has ({@link #counters}); a video's first and last view follow them, then its
     * first frames.
     */
    static final int COUNTERS = 12;
    static final double P50 = 0.5;
    static final double P95 = 0.95;

    private final VideoStore videos;
    private final AnalyticsStore store;
    private final Pages pages;

    public Analytics(VideoStore videos, AnalyticsStore store, Pages pages) {
        this.videos = videos;
        this.store = store;
        this.pages = pages;
    }

    /**
     * Counters with the rates derived from them. {@code repeat-views}: page views by people that were a repeat of a
     * visit (the same address within the repeat window), not in {@code views} (docs/sharing.md, "What counts").
     * {@code first-frame}: how fast pages showed their first frame.
     */
    @JsonPropertyOrder({"views", "unique-viewers", "plays", "completions", "completion-rate",
            "average-percent-watched", "seconds-watched", "cta-clicks", "bot-views", "repeat-views", "first-frame"})
    public record Counters(long views, @JsonProperty("unique-viewers") long uniqueViewers, long plays,
            long completions, @JsonProperty("completion-rate") double completionRate,
            @JsonProperty("average-percent-watched") double averagePercentWatched,
            @JsonProperty("seconds-watched") double secondsWatched, @JsonProperty("cta-clicks") long ctaClicks,
            @JsonProperty("bot-views") long botViews, @JsonProperty("repeat-views") long repeatViews,
            @JsonProperty("first-frame") FirstFrameTimes firstFrame) {
    }

    /**
     * Time to first frame (docs/sharing.md, "What a page reports"): how many page views reported their first frame,
     * and the p50 and p95 of their milliseconds from navigation start, over both sources and per source
     * ({@code stream}: the HLS stream of a link still rendering; {@code video}: the rendered MP4). A percentile is the
     * upper bound of its {@link FirstFrameHistogram} bucket; null without first frames.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"count", "p50-ms", "p95-ms", "stream", "video"})
    public record FirstFrameTimes(long count, @JsonProperty("p50-ms") Integer p50Ms,
            @JsonProperty("p95-ms") Integer p95Ms, FirstFrameSource stream, FirstFrameSource video) {

        public static FirstFrameTimes of(FirstFrameHistogram histogram) {
            return new FirstFrameTimes(histogram.count(null), histogram.percentile(null, P50),
                    histogram.percentile(null, P95), FirstFrameSource.of(histogram, FrameSource.stream),
                    FirstFrameSource.of(histogram, FrameSource.video));
        }
    }

    /** The first frames of one source, with their histogram: first frames per bucket, keyed by its upper bound. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"count", "p50-ms", "p95-ms", "histogram"})
    public record FirstFrameSource(long count, @JsonProperty("p50-ms") Integer p50Ms,
            @JsonProperty("p95-ms") Integer p95Ms, Map<String, Long> histogram) {

        static FirstFrameSource of(FirstFrameHistogram histogram, FrameSource source) {
            return new FirstFrameSource(histogram.count(source), histogram.percentile(source, P50),
                    histogram.percentile(source, P95), histogram.buckets(source));
        }
    }

    /** How many page views reached each point of the video. */
    public record Funnel(@JsonProperty("0") long start, @JsonProperty("25") long quarter,
            @JsonProperty("50") long half, @JsonProperty("75") long threeQuarters,
            @JsonProperty("100") long complete) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"transaction-id", "share-url", "totals", "funnel", "first-view-at", "last-view-at"})
    public record VideoReport(@JsonProperty("transaction-id") UUID transactionId,
            @JsonProperty("share-url") String shareUrl, Counters totals, Funnel funnel,
            @JsonProperty("first-view-at") Instant firstViewAt, @JsonProperty("last-view-at") Instant lastViewAt) {
    }

    /** One day of a template or campaign; {@code first-frame-p50-ms} and {@code -p95-ms} null without first frames. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"day", "views", "unique-viewers", "plays", "completions", "cta-clicks", "first-frames",
            "first-frame-p50-ms", "first-frame-p95-ms"})
    public record Day(LocalDate day, long views, @JsonProperty("unique-viewers") long uniqueViewers, long plays,
            long completions, @JsonProperty("cta-clicks") long ctaClicks,
            @JsonProperty("first-frames") long firstFrames, @JsonProperty("first-frame-p50-ms") Integer firstFrameP50Ms,
            @JsonProperty("first-frame-p95-ms") Integer firstFrameP95Ms) {
    }

    @JsonPropertyOrder({"template-id", "campaign-id", "from", "to", "totals", "funnel", "days"})
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RangeReport(@JsonProperty("template-id") UUID templateId,
            @JsonProperty("campaign-id") String campaignId, LocalDate from, LocalDate to, Counters totals,
            Funnel funnel, List<Day> days) {
    }

    @WithSession
    @WithSpan
    public Uni<VideoReport> video(UUID clientId, UUID transactionId) {
        return videos.byRequest(clientId, transactionId).flatMap(video -> {
            if (video == null) {
                throw ApiException.notFound("no analytics for request '" + transactionId + "'");
            }
            return store.video(video.shareId).map(row -> {
                long[] c = counters(row, 0);
                return new VideoReport(transactionId, video.live(Instant.now()) ? shareUrl(video) : null,
                        totals(c, firstFrames(row)), funnel(c), row == null ? null : instant(row[COUNTERS]),
                        row == null ? null : instant(row[COUNTERS + 1]));
            });
        });
    }

    @WithSession
    @WithSpan
    public Uni<RangeReport> template(UUID clientId, UUID templateId, LocalDate from, LocalDate to) {
        LocalDate[] range = range(from, to);
        return videos.hasTemplate(clientId, templateId).flatMap(has -> {
            if (!has) {
                throw ApiException.notFound("no analytics for template '" + templateId + "'");
            }
            return store.templateDays(clientId, templateId, range[0], range[1])
                    .flatMap(rows -> store.templateFirstFrames(clientId, templateId, range[0], range[1])
                            .map(frames -> report(templateId, null, range, rows, frames)));
        });
    }

    @WithSession
    @WithSpan
    public Uni<RangeReport> campaign(UUID clientId, String campaignId, LocalDate from, LocalDate to) {
        LocalDate[] range = range(from, to);
        return videos.hasCampaign(clientId, campaignId).flatMap(has -> {
            if (!has) {
                throw ApiException.notFound("no analytics for campaign '" + campaignId + "'");
            }
            return store.campaignDays(clientId, campaignId, range[0], range[1])
                    .flatMap(rows -> store.campaignFirstFrames(clientId, campaignId, range[0], range[1])
                            .map(frames -> report(null, campaignId, range, rows, frames)));
        });
    }

    /** One row of the campaign's CSV export. */
    public record VideoRow(String shareId, String shareUrl, UUID taskId, Integer row, String userId,
            UUID serviceRequestId, long[] counters, Instant firstViewAt, Instant lastViewAt,
            FirstFrameHistogram firstFrames) {
    }

    /** The campaign's videos with their counters, a page at a time after {@code after} (a share id). */
    @WithSession
    public Uni<List<VideoRow>> campaignVideos(UUID clientId, String campaignId, String after, int limit) {
        return videos.ofCampaign(clientId, campaignId, after, limit)
                .flatMap(page -> Multi.createFrom().iterable(page).onItem()
                        .transformToUniAndConcatenate(video -> store.video(video.shareId).map(row -> new VideoRow(
                                video.shareId, video.live(Instant.now()) ? shareUrl(video) : null, video.taskId,
                                video.rowNo, video.userId, video.serviceRequestId, counters(row, 0),
                                row == null ? null : instant(row[COUNTERS]),
                                row == null ? null : instant(row[COUNTERS + 1]), firstFrames(row))))
                        .collect().asList());
    }

    @WithSession
    public Uni<Boolean> hasCampaign(UUID clientId, String campaignId) {
        return videos.hasCampaign(clientId, campaignId);
    }

    public String shareUrl(SharedVideoRow video) {
        return pages.absolute("/v/" + video.shareId);
    }

    /**
     * A template's or campaign's report from its days' counters and its days' first frames (day, source, bucket,
     * first frames): each day's histogram, and their sum for the totals.
     */
    private static RangeReport report(UUID templateId, String campaignId, LocalDate[] range, List<Object[]> rows,
            List<Object[]> frames) {
        Map<LocalDate, FirstFrameHistogram> framesByDay = new HashMap<>();
        for (Object[] frame : frames) {
            framesByDay.computeIfAbsent(date(frame[0]), ignored -> new FirstFrameHistogram())
                    .add(FrameSource.valueOf(frame[1].toString()), ((Number) frame[2]).intValue(),
                            ((Number) frame[3]).longValue());
        }
        long[] sum = new long[COUNTERS];
        FirstFrameHistogram allFrames = new FirstFrameHistogram();
        List<Day> days = new ArrayList<>();
        for (Object[] row : rows) {
            long[] c = counters(row, 1);
            for (int i = 0; i < sum.length; i++) {
                sum[i] += c[i];
            }
            FirstFrameHistogram day = framesByDay.getOrDefault(date(row[0]), new FirstFrameHistogram());
            allFrames.add(day);
            days.add(new Day(date(row[0]), c[0], c[1], c[2], c[6], c[7], day.count(null), day.percentile(null, P50),
                    day.percentile(null, P95)));
        }
        return new RangeReport(templateId, campaignId, range[0], range[1], totals(sum, allFrames), funnel(sum), days);
    }

    /** A video's first frames from its row's last column ("source:bucket:frames,..."); empty without any. */
    static FirstFrameHistogram firstFrames(Object[] row) {
        FirstFrameHistogram histogram = new FirstFrameHistogram();
        if (row == null || row[COUNTERS + 2] == null) {
            return histogram;
        }
        for (String bucket : row[COUNTERS + 2].toString().split(",")) {
            String[] parts = bucket.split(":");
            histogram.add(FrameSource.valueOf(parts[0]), Integer.parseInt(parts[1]), Long.parseLong(parts[2]));
        }
        return histogram;
    }

    /**
     * The counters of a rollup row from column {@code offset} on: views, unique, plays, p25, p50, p75, completions,
     * clicks, bots, percent sum, seconds (as a long), repeat views; zeros for no row.
     */
    static long[] counters(Object[] row, int offset) {
        long[] c = new long[COUNTERS];
        if (row == null) {
            return c;
        }
        for (int i = 0; i < c.length; i++) {
            Object value = row[offset + i];
            c[i] = value == null ? 0 : ((Number) value).longValue();
        }
        return c;
    }

    private static Counters totals(long[] c, FirstFrameHistogram firstFrames) {
        double views = Math.max(1, c[0]);
        return new Counters(c[0], c[1], c[2], c[6], c[0] == 0 ? 0 : round(c[6] / views),
                c[0] == 0 ? 0 : round(c[9] / views), c[10], c[7], c[8], c[11], FirstFrameTimes.of(firstFrames));
    }

    private static Funnel funnel(long[] c) {
        return new Funnel(c[0], c[3], c[4], c[5], c[6]);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    /** {@code from}..{@code to} (UTC days), by default the last 30 days; at most {@value #MAX_DAYS} days. */
    static LocalDate[] range(LocalDate from, LocalDate to) {
        LocalDate end = to != null ? to : LocalDate.now(ZoneOffset.UTC);
        LocalDate start = from != null ? from : end.minusDays(29);
        if (start.isAfter(end)) {
            throw ApiException.validation("query parameter 'from' must not be after 'to'");
        }
        if (Duration.between(start.atStartOfDay(), end.atStartOfDay()).toDays() >= MAX_DAYS) {
            throw ApiException.validation("a report covers at most " + MAX_DAYS + " days");
        }
        return new LocalDate[]{start, end};
    }

    private static Instant instant(Object value) {
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof OffsetDateTime offset) {
            return offset.toInstant();
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            return timestamp.toInstant();
        }
        return value == null ? null : Instant.parse(value.toString());
    }

    private static LocalDate date(Object value) {
        if (value instanceof LocalDate date) {
            return date;
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate();
        }
        return LocalDate.parse(value.toString());
    }
}
