package io.pmedia.engagement.repository;

import java.time.LocalDate;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.smallrye.mutiny.Uni;

/** The rollups as the analytics API reads them: one video, or the days of a client's template or campaign. */
@ApplicationScoped
public class AnalyticsStore {

    private static final String COLUMNS = """
            views, unique_viewers, plays, progress_25, progress_50, progress_75, completions, cta_clicks, bot_views,
            percent_sum, seconds_watched, repeat_views""";

    /**
     * One video's counters, first and last view, and its first frames as "source:bucket:frames,..." (null without
     * any); no row before its first event.
     */
    private static final String VIDEO = "SELECT " + COLUMNS + """
            , first_view_at, last_view_at,
              (SELECT string_agg(f.source || ':' || f.le_ms || ':' || f.frames, ',')
                 FROM video_first_frame f WHERE f.share_id = r.share_id)
              FROM video_rollup r WHERE share_id = ?1
            """;

    /** The days of the client's videos of one template, summed per day, oldest first. */
    private static final String TEMPLATE_DAYS = """
            SELECT r.day, sum(r.views), sum(r.unique_viewers), sum(r.plays), sum(r.progress_25), sum(r.progress_50),
                   sum(r.progress_75), sum(r.completions), sum(r.cta_clicks), sum(r.bot_views), sum(r.percent_sum),
                   sum(r.seconds_watched), sum(r.repeat_views)
              FROM video_day_rollup r JOIN shared_video v ON v.share_id = r.share_id
             WHERE v.client_id = ?1 AND v.template_id = ?2 AND r.day BETWEEN ?3 AND ?4
             GROUP BY r.day ORDER BY r.day
            """;

    private static final String CAMPAIGN_DAYS = """
            SELECT r.day, sum(r.views), sum(r.unique_viewers), sum(r.plays), sum(r.progress_25), sum(r.progress_50),
                   sum(r.progress_75), sum(r.completions), sum(r.cta_clicks), sum(r.bot_views), sum(r.percent_sum),
                   sum(r.seconds_watched), sum(r.repeat_views)
              FROM video_day_rollup r JOIN shared_video v ON v.share_id = r.share_id
             WHERE v.client_id = ?1 AND v.campaign_id = ?2 AND r.day BETWEEN ?3 AND ?4
             GROUP BY r.day ORDER BY r.day
            """;

    /** The first frames of the client's videos of one template, summed per day, source and bucket. */
    private static final String TEMPLATE_FIRST_FRAMES = """
            SELECT f.day, f.source, f.le_ms, sum(f.frames)
              FROM video_day_first_frame f JOIN shared_video v ON v.share_id = f.share_id
             WHERE v.client_id = ?1 AND v.template_id = ?2 AND f.day BETWEEN ?3 AND ?4
             GROUP BY f.day, f.source, f.le_ms
            """;

    private static final String CAMPAIGN_FIRST_FRAMES = """
            SELECT f.day, f.source, f.le_ms, sum(f.frames)
              FROM video_day_first_frame f JOIN shared_video v ON v.share_id = f.share_id
             WHERE v.client_id = ?1 AND v.campaign_id = ?2 AND f.day BETWEEN ?3 AND ?4
             GROUP BY f.day, f.source, f.le_ms
            """;

    /** Each column of a row: the counters in {@link #COLUMNS} order (nulls where there is no row). */
    public Uni<Object[]> video(String shareId) {
        return NativeSql.one(Object[].class, VIDEO, shareId);
    }

    /** Rows of (day, counters...). */
    public Uni<List<Object[]>> templateDays(UUID clientId, UUID templateId, LocalDate from, LocalDate to) {
        return NativeSql.list(Object[].class, TEMPLATE_DAYS, clientId, templateId, from, to);
    }

    public Uni<List<Object[]>> campaignDays(UUID clientId, String campaignId, LocalDate from, LocalDate to) {
        return NativeSql.list(Object[].class, CAMPAIGN_DAYS, clientId, campaignId, from, to);
    }

    /** Rows of (day, source, bucket's upper bound, first frames). */
    public Uni<List<Object[]>> templateFirstFrames(UUID clientId, UUID templateId, LocalDate from, LocalDate to) {
        return NativeSql.list(Object[].class, TEMPLATE_FIRST_FRAMES, clientId, templateId, from, to);
    }

    public Uni<List<Object[]>> campaignFirstFrames(UUID clientId, String campaignId, LocalDate from, LocalDate to) {
        return NativeSql.list(Object[].class, CAMPAIGN_FIRST_FRAMES, clientId, campaignId, from, to);
    }
}
