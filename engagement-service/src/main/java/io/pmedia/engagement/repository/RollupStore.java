package io.pmedia.engagement.repository;

import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.common.db.NativeSql;
import io.pmedia.events.ViewerEvent;
import io.smallrye.mutiny.Uni;

/**
 * Viewer events and their rollups (docs/sharing.md), in the caller's session and transaction. Writes of one video
 * come from one consumer at a time (its share id is the record key, so one partition), which is why counters are
 * simple increments.
 */
@ApplicationScoped
public class RollupStore {

    private final ObjectMapper mapper;

    public RollupStore(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * A batch's events, counted once: a redelivered event (the same CloudEvents id) inserts nothing. Answers the ids
     * that were new, as text.
     */
    private static final String INSERT_EVENTS = """
            INSERT INTO viewer_event (event_id, share_id, kind, session, percent, seconds_watched, bot, at, received_at,
                                      first_frame_ms, first_frame_source)
            SELECT e.event_id, e.share_id, e.kind, e.session, e.percent, e.seconds_watched, e.bot, e.at, now(),
                   e.first_frame_ms, e.first_frame_source
            FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))
                 AS e(event_id uuid, share_id text, kind text, session text, percent integer,
                      seconds_watched double precision, bot boolean, at timestamptz, first_frame_ms integer,
                      first_frame_source text)
            ON CONFLICT (event_id) DO NOTHING
            RETURNING CAST(event_id AS text)
            """;

    /** The known ones of a batch's sessions, as one JSON array (null when none is known). */
    private static final String SESSIONS = """
            SELECT CAST(json_agg(json_build_object('share_id', s.share_id, 'session', s.session, 'day', s.day,
                       'viewed', s.viewed, 'played', s.played, 'max_percent', s.max_percent,
                       'seconds_watched', s.seconds_watched, 'completed', s.completed, 'clicked', s.clicked,
                       'bot', s.bot, 'first_frame', s.first_frame)) AS text)
            FROM view_session s
            JOIN jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS k(share_id text, session text)
                 USING (share_id, session)
            """;

    /** A batch's sessions as it left them: new ones inserted, known ones updated (their first day kept). */
    private static final String UPSERT_SESSIONS = """
            INSERT INTO view_session (share_id, session, day, viewed, played, max_percent, seconds_watched, completed,
                                      clicked, bot, first_frame, updated_at)
            SELECT s.share_id, s.session, s.day, s.viewed, s.played, s.max_percent, s.seconds_watched, s.completed,
                   s.clicked, s.bot, s.first_frame, now()
            FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))
                 AS s(share_id text, session text, day date, viewed boolean, played boolean, max_percent integer,
                      seconds_watched double precision, completed boolean, clicked boolean, bot boolean,
                      first_frame boolean)
            ON CONFLICT (share_id, session) DO UPDATE SET
                viewed = EXCLUDED.viewed,
                played = EXCLUDED.played,
                max_percent = EXCLUDED.max_percent,
                seconds_watched = EXCLUDED.seconds_watched,
                completed = EXCLUDED.completed,
                clicked = EXCLUDED.clicked,
                bot = EXCLUDED.bot,
                first_frame = EXCLUDED.first_frame,
                updated_at = EXCLUDED.updated_at
            """;

    /** The known ones of a batch's visits (a visitor's current visit of a video that day), as one JSON array. */
    private static final String VISITS = """
            SELECT CAST(json_agg(json_build_object('share_id', v.share_id, 'day', v.day, 'visitor', v.visitor,
                       'visit_started_at', v.visit_started_at, 'played', v.played, 'max_percent', v.max_percent,
                       'seconds_watched', v.seconds_watched, 'completed', v.completed, 'clicked', v.clicked)) AS text)
            FROM day_visitor v
            JOIN jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb)) AS k(share_id text, day date, visitor text)
                 USING (share_id, day, visitor)
            """;

    /** A batch's visits as it left them: a visitor's first of the day inserted (a unique viewer), the rest updated. */
    private static final String UPSERT_VISITS = """
            INSERT INTO day_visitor (share_id, day, visitor, visit_started_at, played, max_percent, seconds_watched,
                                     completed, clicked)
            SELECT v.share_id, v.day, v.visitor, v.visit_started_at, v.played, v.max_percent, v.seconds_watched,
                   v.completed, v.clicked
            FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))
                 AS v(share_id text, day date, visitor text, visit_started_at timestamptz, played boolean,
                      max_percent integer, seconds_watched double precision, completed boolean, clicked boolean)
            ON CONFLICT (share_id, day, visitor) DO UPDATE SET
                visit_started_at = EXCLUDED.visit_started_at,
                played = EXCLUDED.played,
                max_percent = EXCLUDED.max_percent,
                seconds_watched = EXCLUDED.seconds_watched,
                completed = EXCLUDED.completed,
                clicked = EXCLUDED.clicked
            """;

    /**
     * How many of {@code ?2} new {@code cta.clicked} milestones of a video may go out: at most {@code ?3} per clock
     * hour (the video's row, locked by this transaction's upsert, keeps the hour's count).
     */
    private static final String CLICK_PUSHES = """
            WITH current AS (
                SELECT CASE WHEN click_push_hour = date_trunc('hour', now()) THEN click_pushes ELSE 0 END AS used
                  FROM video_rollup WHERE share_id = ?1)
            UPDATE video_rollup r
               SET click_push_hour = date_trunc('hour', now()),
                   click_pushes = c.used + LEAST(?2, GREATEST(0, ?3 - c.used))
              FROM current c
             WHERE r.share_id = ?1
            RETURNING CAST(LEAST(?2, GREATEST(0, ?3 - c.used)) AS text)
            """;

    /** Adds deltas to a video's rollup; answers the counters before them, "views,completions,cta clicks". */
    private static final String ADD_TO_VIDEO = """
            INSERT INTO video_rollup (share_id, client_id, views, unique_viewers, plays, progress_25, progress_50,
                                      progress_75, completions, cta_clicks, bot_views, percent_sum, seconds_watched,
                                      first_view_at, last_view_at, repeat_views)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14, ?15)
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
                last_view_at = GREATEST(video_rollup.last_view_at, EXCLUDED.last_view_at),
                repeat_views = video_rollup.repeat_views + EXCLUDED.repeat_views
            RETURNING (video_rollup.views - ?3) || ',' || (video_rollup.completions - ?9) || ','
                      || (video_rollup.cta_clicks - ?10)
            """;

    /** A video's counters now, "views,completions,cta clicks"; no row before its first event. */
    private static final String COUNTERS = """
            SELECT views || ',' || completions || ',' || cta_clicks FROM video_rollup WHERE share_id = ?1
            """;

    private static final String ADD_TO_DAY = """
            INSERT INTO video_day_rollup (share_id, day, client_id, views, unique_viewers, plays, progress_25,
                                          progress_50, progress_75, completions, cta_clicks, bot_views, percent_sum,
                                          seconds_watched, repeat_views)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
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
                seconds_watched = video_day_rollup.seconds_watched + EXCLUDED.seconds_watched,
                repeat_views = video_day_rollup.repeat_views + EXCLUDED.repeat_views
            """;

    /**
     * A poll's first frames, added to the buckets of their videos' days and of their videos (each row of the batch
     * is one bucket of one video and day, so no row is updated twice).
     */
    private static final String ADD_FIRST_FRAMES = """
            WITH added AS (
                SELECT a.share_id, a.day, a.source, a.le_ms, a.frames
                  FROM jsonb_to_recordset(CAST(CAST(?1 AS text) AS jsonb))
                       AS a(share_id text, day date, source text, le_ms integer, frames bigint)),
            days AS (
                INSERT INTO video_day_first_frame (share_id, day, source, le_ms, frames)
                SELECT share_id, day, source, le_ms, frames FROM added
                ON CONFLICT (share_id, day, source, le_ms) DO UPDATE SET
                    frames = video_day_first_frame.frames + EXCLUDED.frames)
            INSERT INTO video_first_frame (share_id, source, le_ms, frames)
            SELECT share_id, source, le_ms, sum(frames) FROM added GROUP BY share_id, source, le_ms
            ON CONFLICT (share_id, source, le_ms) DO UPDATE SET frames = video_first_frame.frames + EXCLUDED.frames
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
            Instant firstViewAt, long repeatViews) {
    }

    /** The steps of watching a video, each done once: by a page view, or by a visit (its address's page views). */
    public static class Steps {

        public boolean played;
        public int maxPercent;
        public double secondsWatched;
        public boolean completed;
        public boolean clicked;
    }

    /** First frames of one video on one day in one bucket ({@code leMs}: the bucket's upper bound). */
    public record FirstFrames(String shareId, LocalDate day, String source, int leMs, long frames) {
    }

    /** A page view as the rollup knows it: what it has done already. */
    public static final class Session extends Steps {

        public final String shareId;
        public final String session;
        public final LocalDate day;
        public boolean viewed;
        public boolean bot;
        /** Its first frame is counted (a page view has one). */
        public boolean firstFrame;

        public Session(String shareId, String session, LocalDate day) {
            this.shareId = shareId;
            this.session = session;
            this.day = day;
        }
    }

    /** A page view's identity. */
    public record SessionKey(String shareId, String session) {
    }

    /** A visitor (the day's hash of an address) of a video on a day. */
    public record VisitKey(String shareId, LocalDate day, String visitor) {
    }

    /**
     * A visitor's current visit of a video: when it started (null for a visitor not seen that day), and what its page
     * views have counted already.
     */
    public static final class Visit extends Steps {

        public final VisitKey key;
        public Instant startedAt;

        public Visit(VisitKey key) {
            this.key = key;
        }

        /** A new visit from {@code at}: nothing counted yet. */
        public void restart(Instant at) {
            startedAt = at;
            played = false;
            maxPercent = 0;
            secondsWatched = 0;
            completed = false;
            clicked = false;
        }
    }

    /** Records a batch's events (distinct ids); answers the ids that were new, counted now (the rest were known). */
    public Uni<Set<UUID>> insertEvents(Map<UUID, ViewerEvent> events) {
        List<Map<String, Object>> rows = new ArrayList<>(events.size());
        events.forEach((id, event) -> {
            Map<String, Object> row = new HashMap<>();
            row.put("event_id", id.toString());
            row.put("share_id", event.shareId());
            row.put("kind", event.kind().wire());
            row.put("session", event.session());
            row.put("percent", event.percent());
            row.put("seconds_watched", event.secondsWatched());
            row.put("bot", event.bot());
            row.put("at", event.at().toString());
            row.put("first_frame_ms", event.firstFrameMs());
            row.put("first_frame_source", event.firstFrameSource() == null ? null : event.firstFrameSource().name());
            rows.add(row);
        });
        return NativeSql.list(String.class, INSERT_EVENTS, json(rows))
                .map(ids -> ids.stream().map(UUID::fromString).collect(Collectors.toSet()));
    }

    /** The known sessions among {@code keys}. */
    public Uni<Map<SessionKey, Session>> sessions(Set<SessionKey> keys) {
        List<Map<String, Object>> rows = keys.stream()
                .map(key -> Map.<String, Object>of("share_id", key.shareId(), "session", key.session()))
                .toList();
        return NativeSql.one(String.class, SESSIONS, json(rows)).map(found -> {
            Map<SessionKey, Session> known = new HashMap<>();
            if (found == null) {
                return known;
            }
            try {
                for (JsonNode row : mapper.readTree(found)) {
                    Session session = new Session(row.get("share_id").asText(), row.get("session").asText(),
                            LocalDate.parse(row.get("day").asText()));
                    session.viewed = row.get("viewed").asBoolean();
                    session.played = row.get("played").asBoolean();
                    session.maxPercent = row.get("max_percent").asInt();
                    session.secondsWatched = row.get("seconds_watched").asDouble();
                    session.completed = row.get("completed").asBoolean();
                    session.clicked = row.get("clicked").asBoolean();
                    session.bot = row.get("bot").asBoolean();
                    session.firstFrame = row.get("first_frame").asBoolean();
                    known.put(new SessionKey(session.shareId, session.session), session);
                }
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("view sessions cannot be read: " + e.getMessage(), e);
            }
            return known;
        });
    }

    /** Writes the sessions a batch touched, as it left them. */
    public Uni<Integer> upsertSessions(Collection<Session> sessions) {
        List<Map<String, Object>> rows = new ArrayList<>(sessions.size());
        for (Session session : sessions) {
            Map<String, Object> row = new HashMap<>();
            row.put("share_id", session.shareId);
            row.put("session", session.session);
            row.put("day", session.day.toString());
            row.put("viewed", session.viewed);
            row.put("played", session.played);
            row.put("max_percent", session.maxPercent);
            row.put("seconds_watched", session.secondsWatched);
            row.put("completed", session.completed);
            row.put("clicked", session.clicked);
            row.put("bot", session.bot);
            row.put("first_frame", session.firstFrame);
            rows.add(row);
        }
        return NativeSql.update(UPSERT_SESSIONS, json(rows));
    }

    /** The known visits among {@code keys}. */
    public Uni<Map<VisitKey, Visit>> visits(Set<VisitKey> keys) {
        List<Map<String, Object>> rows = keys.stream()
                .map(key -> Map.<String, Object>of("share_id", key.shareId(), "day", key.day().toString(),
                        "visitor", key.visitor()))
                .toList();
        return NativeSql.one(String.class, VISITS, json(rows)).map(found -> {
            Map<VisitKey, Visit> known = new HashMap<>();
            if (found == null) {
                return known;
            }
            try {
                for (JsonNode row : mapper.readTree(found)) {
                    Visit visit = new Visit(new VisitKey(row.get("share_id").asText(),
                            LocalDate.parse(row.get("day").asText()), row.get("visitor").asText()));
                    JsonNode started = row.get("visit_started_at");
                    visit.startedAt = started == null || started.isNull()
                            ? null
                            : java.time.OffsetDateTime.parse(started.asText()).toInstant();
                    visit.played = row.get("played").asBoolean();
                    visit.maxPercent = row.get("max_percent").asInt();
                    visit.secondsWatched = row.get("seconds_watched").asDouble();
                    visit.completed = row.get("completed").asBoolean();
                    visit.clicked = row.get("clicked").asBoolean();
                    known.put(visit.key, visit);
                }
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("visits cannot be read: " + e.getMessage(), e);
            }
            return known;
        });
    }

    /** Writes the visits a batch touched, as it left them. */
    public Uni<Integer> upsertVisits(Collection<Visit> visits) {
        List<Map<String, Object>> rows = new ArrayList<>(visits.size());
        for (Visit visit : visits) {
            Map<String, Object> row = new HashMap<>();
            row.put("share_id", visit.key.shareId());
            row.put("day", visit.key.day().toString());
            row.put("visitor", visit.key.visitor());
            row.put("visit_started_at", visit.startedAt == null ? null : visit.startedAt.toString());
            row.put("played", visit.played);
            row.put("max_percent", visit.maxPercent);
            row.put("seconds_watched", visit.secondsWatched);
            row.put("completed", visit.completed);
            row.put("clicked", visit.clicked);
            rows.add(row);
        }
        return NativeSql.update(UPSERT_VISITS, json(rows));
    }

    /** How many of {@code wanted} new {@code cta.clicked} milestones may go out this hour, at most {@code cap}. */
    public Uni<Integer> clickPushes(String shareId, int wanted, int cap) {
        return NativeSql.one(String.class, CLICK_PUSHES, shareId, wanted, cap).map(Integer::parseInt);
    }

    /**
     * The rows as one JSON text; the statements read it with {@code CAST(CAST(?1 AS text) AS jsonb)}, because the
     * reactive driver binds a string given for a {@code jsonb} parameter as a JSON string, not as the document.
     */
    private String json(Object rows) {
        try {
            return mapper.writeValueAsString(rows);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("rollup rows cannot be serialized: " + e.getMessage(), e);
        }
    }

    /** Adds to a video's counters; the views, completions and clicks it had before, as {@code long[3]}. */
    public Uni<long[]> addToVideo(String shareId, UUID clientId, Deltas d) {
        return NativeSql.one(String.class, ADD_TO_VIDEO, shareId, clientId, d.views(), d.uniqueViewers(), d.plays(),
                d.progress25(), d.progress50(), d.progress75(), d.completions(), d.ctaClicks(), d.botViews(),
                d.percentSum(), d.secondsWatched(), d.firstViewAt(), d.repeatViews()).map(RollupStore::parseCounters);
    }

    /** A video's views, completions and clicks now, as {@code long[3]} (zeros before its first event). */
    public Uni<long[]> counters(String shareId) {
        return NativeSql.one(String.class, COUNTERS, shareId).map(RollupStore::parseCounters);
    }

    private static long[] parseCounters(String text) {
        if (text == null) {
            return new long[3];
        }
        String[] parts = text.split(",");
        return new long[]{Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])};
    }

    public Uni<Integer> addToDay(String shareId, LocalDate day, UUID clientId, Deltas d) {
        return NativeSql.update(ADD_TO_DAY, shareId, day, clientId, d.views(), d.uniqueViewers(), d.plays(),
                d.progress25(), d.progress50(), d.progress75(), d.completions(), d.ctaClicks(), d.botViews(),
                d.percentSum(), d.secondsWatched(), d.repeatViews());
    }

    /** Adds a poll's first frames to their buckets, in one statement. */
    public Uni<Integer> addFirstFrames(List<FirstFrames> rows) {
        List<Map<String, Object>> json = rows.stream()
                .map(row -> Map.<String, Object>of("share_id", row.shareId(), "day", row.day().toString(), "source",
                        row.source(), "le_ms", row.leMs(), "frames", row.frames()))
                .toList();
        return NativeSql.update(ADD_FIRST_FRAMES, json(json));
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
