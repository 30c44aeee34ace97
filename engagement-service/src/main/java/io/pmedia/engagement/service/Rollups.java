package io.pmedia.engagement.service;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pmedia.common.outbox.EventPublisher;
import io.pmedia.engagement.config.EngagementConfig;
import io.pmedia.engagement.repository.RollupStore;
import io.pmedia.engagement.repository.VideoStore;
import io.pmedia.events.EngagementMilestone;
import io.pmedia.events.ViewerEvent;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Rolls viewer events up (docs/sharing.md, "What counts"): each event id counts once (a redelivery inserts nothing);
 * each step of a page view once and in funnel order (its session remembers what it did: no play without its view, no
 * progress or completion without its play, no click or first frame without its view); page views from one address
 * within the repeat window are one visit, which counts one view (the others are repeat views, shown apart) and each
 * of its steps once (but a first frame for every page view: it measures delivery); a bot's view only to the bots'
 * count. A batch of events is one transaction: its raw events, its sessions and visits, the counters per video and
 * per video and day (with their first frames' histograms), and the milestones it reached (first view, first
 * completion, a visit's click, at most {@code pmedia.engagement.cta-webhooks-per-hour} per video) as outbox events for
 * the notifier's webhooks, each with the counters the video had when it was counted.
 */
@ApplicationScoped
public class Rollups {

    private static final int[] STEPS = {25, 50, 75};

    private final RollupStore rollups;
    private final VideoStore videos;
    private final EventPublisher publisher;
    private final Duration repeatWindow;
    private final int clickPushesPerHour;
    private final Counter rolledUp;
    private final Counter duplicates;
    private volatile Instant lastEventAt;

    public Rollups(RollupStore rollups, VideoStore videos, EventPublisher publisher, EngagementConfig config,
            MeterRegistry registry) {
        this.rollups = rollups;
        this.videos = videos;
        this.publisher = publisher;
        this.repeatWindow = config.repeatWindow();
        this.clickPushesPerHour = config.ctaWebhooksPerHour();
        this.rolledUp = Counter.builder("pmedia_engagement_events_rolled_up_total")
                .description("viewer events counted into the rollups").register(registry);
        this.duplicates = Counter.builder("pmedia_engagement_events_duplicate_total")
                .description("viewer events delivered again and counted once").register(registry);
        registry.gauge("pmedia_engagement_rollup_lag_seconds", this, Rollups::lagSeconds);
    }

    /** An event as it arrived: its CloudEvents id (its identity) and its data. */
    public record Arrived(UUID id, ViewerEvent event) {
    }

    /** How far behind the newest event applied the rollup is (0 when nothing has arrived yet). */
    double lagSeconds() {
        Instant last = lastEventAt;
        return last == null ? 0 : Math.max(0, (Instant.now().toEpochMilli() - last.toEpochMilli()) / 1000.0);
    }

    /** What one retention batch deleted (docs/privacy.md). */
    public record Deleted(int events, int sessions, int visitors) {

        public int total() {
            return events + sessions + visitors;
        }
    }

    /**
     * One retention batch, in one transaction: up to {@code limit} raw events and sessions from before {@code cutoff},
     * and the visitor hashes of the days before {@code visitorsFrom}.
     */
    @WithTransaction
    public Uni<Deleted> deleteRawBefore(Instant cutoff, LocalDate visitorsFrom, int limit) {
        return rollups.deleteEventsBefore(cutoff, limit)
                .flatMap(events -> rollups.deleteSessionsBefore(cutoff, limit)
                        .flatMap(sessions -> rollups.deleteVisitorsBefore(visitorsFrom)
                                .map(visitors -> new Deleted(events, sessions, visitors))));
    }

    /**
     * One batch, set-based: its events in one statement (the new ids are counted, the rest are redeliveries), its
     * sessions read in one and its visits in one, then each video's counters and milestones, sessions and visits
     * written back in one statement each.
     */
    @WithTransaction
    public Uni<Void> apply(List<Arrived> batch) {
        Map<UUID, ViewerEvent> distinct = new LinkedHashMap<>();
        batch.forEach(arrived -> distinct.putIfAbsent(arrived.id(), arrived.event()));
        return rollups.insertEvents(distinct).flatMap(fresh -> {
            duplicates.increment(batch.size() - fresh.size());
            rolledUp.increment(fresh.size());
            List<ViewerEvent> counted = new ArrayList<>(fresh.size());
            distinct.forEach((id, event) -> {
                if (fresh.contains(id)) {
                    counted.add(event);
                }
            });
            if (counted.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            Set<RollupStore.SessionKey> keys = new LinkedHashSet<>();
            Set<RollupStore.VisitKey> visitKeys = new LinkedHashSet<>();
            counted.forEach(event -> {
                keys.add(new RollupStore.SessionKey(event.shareId(), event.session()));
                RollupStore.VisitKey visit = visitKey(event);
                if (visit != null) {
                    visitKeys.add(visit);
                }
            });
            Uni<Map<RollupStore.VisitKey, RollupStore.Visit>> visits = visitKeys.isEmpty()
                    ? Uni.createFrom().item(Map.of())
                    : rollups.visits(visitKeys);
            return rollups.sessions(keys).flatMap(known -> visits.flatMap(seen -> count(counted, known, seen)));
        }).invoke(() -> {
            if (!batch.isEmpty()) {
                lastEventAt = batch.get(batch.size() - 1).event().at();
            }
        });
    }

    /** The visit an event belongs to: its visitor's of the day; null for a bot's or an event without a visitor. */
    private static RollupStore.VisitKey visitKey(ViewerEvent event) {
        return event.bot() || event.visitor() == null
                ? null
                : new RollupStore.VisitKey(event.shareId(), event.at().atZone(ZoneOffset.UTC).toLocalDate(),
                        event.visitor());
    }

    /** The new events, in order, against their sessions and visits; then what they changed, written in bulk. */
    private Uni<Void> count(List<ViewerEvent> events, Map<RollupStore.SessionKey, RollupStore.Session> known,
            Map<RollupStore.VisitKey, RollupStore.Visit> seen) {
        Map<String, VideoDeltas> byVideo = new LinkedHashMap<>();
        Map<RollupStore.SessionKey, RollupStore.Session> touched = new LinkedHashMap<>();
        Map<RollupStore.VisitKey, RollupStore.Visit> visited = new LinkedHashMap<>();
        for (ViewerEvent event : events) {
            if (event.kind() == null) {
                // a type this version does not know (a newer replica's beacon during a rollout): skipped, so the poll
                // and its partition go on; the version that knows it counts the next ones
                continue;
            }
            RollupStore.Session session = touched.computeIfAbsent(
                    new RollupStore.SessionKey(event.shareId(), event.session()),
                    key -> known.getOrDefault(key, new RollupStore.Session(key.shareId(), key.session(),
                            event.at().atZone(ZoneOffset.UTC).toLocalDate())));
            RollupStore.VisitKey visitKey = visitKey(event);
            RollupStore.Visit visit = visitKey == null
                    ? null
                    : visited.computeIfAbsent(visitKey, key -> seen.getOrDefault(key, new RollupStore.Visit(key)));
            VideoDeltas video = byVideo.computeIfAbsent(event.shareId(), id -> new VideoDeltas(event));
            step(session, visit, event, video);
        }
        Uni<Integer> visitsWritten = visited.isEmpty()
                ? Uni.createFrom().item(0)
                : rollups.upsertVisits(visited.values());
        return visitsWritten
                .flatMap(ignored -> rollups.upsertSessions(touched.values()))
                .flatMap(ignored -> Multi.createFrom().iterable(byVideo.values()).onItem()
                        .transformToUniAndConcatenate(this::store).collect().last())
                .flatMap(ignored -> storeFirstFrames(byVideo.values()))
                .replaceWithVoid();
    }

    /** The batch's first frames, every video's days in one statement (nothing when the batch has none). */
    private Uni<Integer> storeFirstFrames(Collection<VideoDeltas> videos) {
        List<RollupStore.FirstFrames> rows = new ArrayList<>();
        videos.forEach(video -> video.days.forEach((day, counts) -> counts.firstFrames.forEachBucket(
                (source, bound, frames) -> rows.add(
                        new RollupStore.FirstFrames(video.shareId, day, source.name(), bound, frames)))));
        return rows.isEmpty() ? Uni.createFrom().item(0) : rollups.addFirstFrames(rows);
    }

    /**
     * One event's new steps, added to its video's deltas. A step counts when it is new for its page view, in funnel
     * order, and new for its visit ({@code visit} null: the page view alone decides).
     */
    private void step(RollupStore.Session session, RollupStore.Visit visit, ViewerEvent event, VideoDeltas video) {
        LocalDate day = event.at().atZone(ZoneOffset.UTC).toLocalDate();
        Day counts = video.day(day);
        if (event.bot()) {
            if (event.kind() == ViewerEvent.Kind.view && !session.viewed) {
                session.viewed = true;
                session.bot = true;
                counts.botViews++;
            }
            return;
        }
        RollupStore.Steps counted = visit != null ? visit : session;
        switch (event.kind()) {
            case view -> view(session, visit, event, video, counts);
            case play -> {
                if (session.viewed && !session.played) {
                    session.played = true;
                    if (visit == null || !visit.played) {
                        counted.played = true;
                        counts.plays++;
                    }
                }
            }
            case progress -> {
                if (session.played) {
                    reach(session, visit, event.percent() == null ? 0 : event.percent(), counts);
                }
            }
            case complete -> {
                if (session.played && !session.completed) {
                    reach(session, visit, 100, counts);
                    session.completed = true;
                    if (visit == null || !visit.completed) {
                        counted.completed = true;
                        counts.completions++;
                        video.completions++;
                        video.firstCompletion = video.firstCompletion == null
                                ? video.snapshot()
                                : video.firstCompletion;
                    }
                }
            }
            case cta_click -> {
                if (session.viewed && !session.clicked) {
                    session.clicked = true;
                    if (visit == null || !visit.clicked) {
                        counted.clicked = true;
                        counts.ctaClicks++;
                        video.clicks++;
                        video.clickSnapshots.add(video.snapshot());
                    }
                }
            }
            case first_frame -> {
                // Every page view's own (a repeat view's too): it measures delivery, not the audience.
                if (session.viewed && !session.firstFrame && event.firstFrameMs() != null
                        && event.firstFrameSource() != null) {
                    session.firstFrame = true;
                    counts.firstFrames.add(event.firstFrameSource(), event.firstFrameMs());
                }
            }
        }
        if (session.played && event.secondsWatched() != null && event.secondsWatched() > session.secondsWatched) {
            double from = counted.secondsWatched;
            if (event.secondsWatched() > from) {
                counts.seconds += event.secondsWatched() - from;
                counted.secondsWatched = event.secondsWatched();
            }
            session.secondsWatched = event.secondsWatched();
        }
    }

    /**
     * A page view's view: the first of a visit counts (and, for the visitor's first visit of the day, one unique
     * viewer); a later one within the repeat window is a repeat view.
     */
    private void view(RollupStore.Session session, RollupStore.Visit visit, ViewerEvent event, VideoDeltas video,
            Day counts) {
        if (session.viewed) {
            return;
        }
        session.viewed = true;
        if (visit != null) {
            if (visit.startedAt != null && event.at().isBefore(visit.startedAt.plus(repeatWindow))) {
                counts.repeatViews++;
                return;
            }
            if (visit.startedAt == null) {
                counts.uniqueViewers++;
            }
            visit.restart(event.at());
        }
        counts.views++;
        video.views++;
        video.firstViewAt = video.firstViewAt == null ? event.at() : video.firstViewAt;
        video.firstView = video.firstView == null ? video.snapshot() : video.firstView;
    }

    /**
     * Moves a page view's furthest point to {@code percent}; what counts is the visit's furthest point (the page
     * view's without a visit): every 25/50/75 step passed on the way counts once.
     */
    private static void reach(RollupStore.Session session, RollupStore.Visit visit, int percent, Day counts) {
        RollupStore.Steps counted = visit != null ? visit : session;
        int from = counted.maxPercent;
        session.maxPercent = Math.max(session.maxPercent, percent);
        if (percent <= from) {
            return;
        }
        for (int step : STEPS) {
            if (from < step && percent >= step) {
                switch (step) {
                    case 25 -> counts.progress25++;
                    case 50 -> counts.progress50++;
                    default -> counts.progress75++;
                }
            }
        }
        counts.percentSum += percent - from;
        counted.maxPercent = percent;
    }

    /** A video's deltas: its day rows, its video row, and the milestones they reach. */
    private Uni<Void> store(VideoDeltas video) {
        RollupStore.Deltas total = video.total();
        return Multi.createFrom().iterable(video.days.entrySet()).onItem()
                .transformToUniAndConcatenate(day -> rollups.addToDay(video.shareId, day.getKey(), video.clientId,
                        day.getValue().deltas(null)))
                .collect().last()
                .flatMap(ignored -> rollups.addToVideo(video.shareId, video.clientId, total))
                .flatMap(before -> milestones(video, total, before));
    }

    /**
     * The milestones a batch reached, each with the counters the video had when it was counted (its counters before
     * the batch and the batch's up to that event): its first view, its first completion, and each visit's click, of
     * which at most {@link #clickPushesPerHour} an hour go out (the clicks all count).
     */
    private Uni<Void> milestones(VideoDeltas video, RollupStore.Deltas added, long[] before) {
        Uni<Integer> clicksPushed = video.clickSnapshots.isEmpty()
                ? Uni.createFrom().item(0)
                : rollups.clickPushes(video.shareId, video.clickSnapshots.size(), clickPushesPerHour);
        return clicksPushed.flatMap(allowed -> {
            List<Map.Entry<String, long[]>> reached = new ArrayList<>();
            if (before[0] == 0 && video.firstView != null) {
                reached.add(Map.entry(EngagementMilestone.VIEWED, video.firstView));
            }
            if (before[1] == 0 && video.firstCompletion != null) {
                reached.add(Map.entry(EngagementMilestone.COMPLETED, video.firstCompletion));
            }
            video.clickSnapshots.stream().limit(allowed)
                    .forEach(snapshot -> reached.add(Map.entry(EngagementMilestone.CTA_CLICKED, snapshot)));
            if (reached.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            return videos.byShare(video.shareId).flatMap(row -> Multi.createFrom().iterable(reached).onItem()
                    .transformToUniAndConcatenate(milestone -> publisher.publish(new EngagementMilestone(
                            milestone.getKey(), video.clientId, video.shareId,
                            row == null ? null : row.serviceRequestId, row == null ? null : row.taskId,
                            row == null ? null : row.rowNo, row == null ? null : row.campaignId,
                            row == null ? null : row.templateId, row == null ? null : row.userId,
                            before[0] + milestone.getValue()[0], before[1] + milestone.getValue()[1],
                            before[2] + milestone.getValue()[2], Instant.now())))
                    .collect().last().replaceWithVoid());
        });
    }

    /**
     * The counters one batch adds to a video, by day; its running views, completions and clicks, and what they were
     * at its first view, its first completion and each counted click.
     */
    private static final class VideoDeltas {

        final String shareId;
        final UUID clientId;
        final Map<LocalDate, Day> days = new LinkedHashMap<>();
        final List<long[]> clickSnapshots = new ArrayList<>();
        long views;
        long completions;
        long clicks;
        long[] firstView;
        long[] firstCompletion;
        Instant firstViewAt;

        VideoDeltas(ViewerEvent first) {
            this.shareId = first.shareId();
            this.clientId = first.clientId();
        }

        Day day(LocalDate day) {
            return days.computeIfAbsent(day, ignored -> new Day());
        }

        long[] snapshot() {
            return new long[]{views, completions, clicks};
        }

        RollupStore.Deltas total() {
            Day sum = new Day();
            days.values().forEach(sum::add);
            return sum.deltas(firstViewAt);
        }
    }

    /** Counters of one video on one day. */
    private static final class Day {

        long views;
        long uniqueViewers;
        long plays;
        long progress25;
        long progress50;
        long progress75;
        long completions;
        long ctaClicks;
        long botViews;
        long repeatViews;
        long percentSum;
        double seconds;
        final FirstFrameHistogram firstFrames = new FirstFrameHistogram();

        void add(Day other) {
            views += other.views;
            uniqueViewers += other.uniqueViewers;
            plays += other.plays;
            progress25 += other.progress25;
            progress50 += other.progress50;
            progress75 += other.progress75;
            completions += other.completions;
            ctaClicks += other.ctaClicks;
            botViews += other.botViews;
            repeatViews += other.repeatViews;
            percentSum += other.percentSum;
            seconds += other.seconds;
            firstFrames.add(other.firstFrames);
        }

        RollupStore.Deltas deltas(Instant firstViewAt) {
            return new RollupStore.Deltas(views, uniqueViewers, plays, progress25, progress50, progress75, completions,
                    ctaClicks, botViews, percentSum, seconds, firstViewAt, repeatViews);
        }
    }
}
