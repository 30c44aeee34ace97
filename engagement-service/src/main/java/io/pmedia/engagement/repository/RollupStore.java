package io.pmedia.engagement.repository;

import java.time.Instant;
import java.time.LocalDate;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.pmedia.common.db.NativeSql;
import io.pmedia.engagement.ViewSession;
import io.smallrye.mutiny.Uni;

/**
 * Viewer events and their rollups (docs/sharing.md), in the caller's session and transaction. Writes of one video
 * come from one consumer at a time (its share id is the record key, so one partition), which is why counters are
 * simple increments.
 */
@ApplicationScoped
public class RollupStore {

    /** Counted once: a redelivered event (the same CloudEvents id) inserts nothing. */
    private static final String INSERT_EVENT = """
            INSERT INTO viewer_event (event_id, share_id, kind, session, percent, seconds_watched, bot, at, received_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, now())
            ON CONFLICT (event_id) DO NOTHING
            """;

    private static final String SESSION = """
            SELECT * FROM view_session WHERE share_id = ?1 AND session = ?2
            """;

    /** The day's first event of a visitor on a video: 1 when new (one more unique viewer), 0 otherwise. */
    private static final String INSERT_VISITOR = """
            INSERT INTO day_visitor (share_id, day, visitor) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING
            """;

    /** Adds deltas to a video's rollup; answers the counters before them, "views,completions". */
    private static final String ADD_TO_VIDEO = """
            INSERT INTO video_rollup (share_id, client_id, views, unique_viewers, plays, progress_25, progress_50,
                                      progress_75, completions, cta_clicks, bot_views, percent_sum, seconds_watched,
                                      first_view_at, last_view_at)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14)
            ON CONFLICT (share_id) DO UPDATE SET
                views = video_rollup.views + EXCLUDED.views,
                unique_viewers = video_rollup.unique_viewers + EXCLUDED.unique_viewers,
                plays = video_rollup.plays + EXCLUDED.plays,
                progress_25 = video_rollup.progress_25 + EXCLUDED.progress_25,
                progress_50 = video_rollup.progress_50 + EXCLUDED.progress_50,
                progress_75 = video_rollup.progress_75 + EXCLUDED.progress_75,
                completions = video_rollup.completions + EXCLUDED.completions,
                cta_clicks = video_rollup.cta_clicks + EXCLUDED.cta_clicks,
                bot_views = video_rollup.bot_views + EXCLUDED.bot_views,
                percent_sum = video_rollup.percent_sum + EXCLUDED.percent_sum,
                seconds_watched = video_rollup.seconds_watched + EXCLUDED.seconds_watched,
                first_view_at = COALESCE(video_rollup.first_view_at, EXCLUDED.first_view_at),
                last_view_at = GREATEST(video_rollup.last_view_at, EXCLUDED.last_view_at)
            RETURNING (video_rollup.views - ?3) || ',' || (video_rollup.completions - ?9)
            """;

    private static final String ADD_TO_DAY = """
            INSERT INTO video_day_rollup (share_id, day, client_id, views, unique_viewers, plays, progress_25,
                                          progress_50, progress_75, completions, cta_clicks, bot_views, percent_sum,
                                          seconds_watched)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
            ON CONFLICT (share_id, day) DO UPDATE SET
                views = video_day_rollup.views + EXCLUDED.views,
                unique_viewers = video_day_rollup.unique_viewers + EXCLUDED.unique_viewers,
                plays = video_day_rollup.plays + EXCLUDED.plays,
                progress_25 = video_day_rollup.progress_25 + EXCLUDED.progress_25,
                progress_50 = video_day_rollup.progress_50 + EXCLUDED.progress_50,
                progress_75 = video_day_rollup.progress_75 + EXCLUDED.progress_75,
                completions = video_day_rollup.completions + EXCLUDED.completions,
                cta_clicks = video_day_rollup.cta_clicks + EXCLUDED.cta_clicks,
                bot_views = video_day_rollup.bot_views + EXCLUDED.bot_views,
                percent_sum = video_day_rollup.percent_sum + EXCLUDED.percent_sum,
                seconds_watched = video_day_rollup.seconds_watched + EXCLUDED.seconds_watched
            """;

    /** Raw events and sessions past the retention, a bounded batch at a time. */
    private static final String DELETE_OLD_EVENTS = """
            DELETE FROM viewer_event WHERE event_id IN
                (SELECT event_id FROM viewer_event WHERE received_at < ?1 LIMIT ?2)
            """;
    private static final String DELETE_OLD_SESSIONS = """
            DELETE FROM view_session WHERE (share_id, session) IN
                (SELECT share_id, session FROM view_session WHERE updated_at < ?1 LIMIT ?2)
            """;
    /** Visitor hashes and salts of days before yesterday: nothing can link a viewer across days afterwards. */
    private static final String DELETE_OLD_VISITORS = """
            DELETE FROM day_visitor WHERE day < ?1
            """;
    private static final String DELETE_OLD_SALTS = """
            DELETE FROM visitor_salt WHERE day < ?1
            """;

    /** What a batch adds to one video's counters (and to one of its days). */
    public record Deltas(long views, long uniqueViewers, long plays, long progress25, long progress50,
            long progress75, long completions, long ctaClicks, long botViews, long percentSum, double secondsWatched,
            Instant firstViewAt) {
    }

    /** True when the event is new (counted now); false for a redelivery. */
    public Uni<Boolean> insertEvent(UUID eventId, String shareId, String kind, String session, Integer percent,
            Double seconds, boolean bot, Instant at) {
        return NativeSql.update(INSERT_EVENT, eventId, shareId, kind, session, percent, seconds, bot, at)
                .map(inserted -> inserted == 1);
    }

    public Uni<ViewSession> session(String shareId, String session) {
        return NativeSql.one(ViewSession.class, SESSION, shareId, session);
    }

    public Uni<Boolean> newVisitor(String shareId, LocalDate day, String visitor) {
        return NativeSql.update(INSERT_VISITOR, shareId, day, visitor).map(inserted -> inserted == 1);
    }

    /** Adds to a video's counters; the views and completions it had before, as {@code long[2]}. */
    public Uni<long[]> addToVideo(String shareId, UUID clientId, Deltas d) {
        return NativeSql.one(String.class, ADD_TO_VIDEO, shareId, clientId, d.views(), d.uniqueViewers(), d.plays(),
                d.progress25(), d.progress50(), d.progress75(), d.completions(), d.ctaClicks(), d.botViews(),
                d.percentSum(), d.secondsWatched(), d.firstViewAt()).map(before -> {
                    String[] parts = before.split(",");
                    return new long[]{Long.parseLong(parts[0]), Long.parseLong(parts[1])};
                });
    }

    public Uni<Integer> addToDay(String shareId, LocalDate day, UUID clientId, Deltas d) {
        return NativeSql.update(ADD_TO_DAY, shareId, day, clientId, d.views(), d.uniqueViewers(), d.plays(),
                d.progress25(), d.progress50(), d.progress75(), d.completions(), d.ctaClicks(), d.botViews(),
                d.percentSum(), d.secondsWatched());
    }

    public Uni<Integer> deleteEventsBefore(Instant cutoff, int limit) {
        return NativeSql.update(DELETE_OLD_EVENTS, cutoff, limit);
    }

    public Uni<Integer> deleteSessionsBefore(Instant cutoff, int limit) {
        return NativeSql.update(DELETE_OLD_SESSIONS, cutoff, limit);
    }

    public Uni<Integer> deleteVisitorsBefore(LocalDate day) {
        return NativeSql.update(DELETE_OLD_VISITORS, day).call(() -> NativeSql.update(DELETE_OLD_SALTS, day));
    }
}
