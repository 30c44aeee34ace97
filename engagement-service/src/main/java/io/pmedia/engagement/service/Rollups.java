package io.pmedia.engagement.service;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
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
import io.pmedia.engagement.repository.RollupStore;
import io.pmedia.engagement.repository.VideoStore;
import io.pmedia.events.EngagementMilestone;
import io.pmedia.events.ViewerEvent;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Rolls viewer events up (docs/sharing.md): each event id counts once (a redelivery inserts nothing), each step of a
 * page view once (its session remembers what it did: a repeated play or a second completion beacon adds nothing), and
 * a bot's view only to the bots' count. A batch of events is one transaction: its raw events, its sessions, the
 * counters per video and per video and day, and the milestones it reached (first view, first completion, a click)
 * as outbox events for the notifier's webhooks.
 */
@ApplicationScoped
public class Rollups {

    private static final int[] STEPS = {25, 50, 75};

    private final RollupStore rollups;
    private final VideoStore videos;
    private final EventPublisher publisher;
    private final Counter rolledUp;
    private final Counter duplicates;
    private volatile Instant lastEventAt;

    public Rollups(RollupStore rollups, VideoStore videos, EventPublisher publisher, MeterRegistry registry) {
        this.rollups = rollups;
        this.videos = videos;
        this.publisher = publisher;
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

    /**
     * One batch, set-based: its events in one statement (the new ids are counted, the rest are redeliveries), its
     * sessions read in one and written back in one, its visitors in one, then each video's counters and milestones.
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
            counted.forEach(event -> keys.add(new RollupStore.SessionKey(event.shareId(), event.session())));
            return rollups.sessions(keys).flatMap(known -> count(counted, known));
        }).invoke(() -> {
            if (!batch.isEmpty()) {
                lastEventAt = batch.get(batch.size() - 1).event().at();
            }
        });
    }

    /** The new events, in order, against their sessions; then what they changed, written in bulk. */
    private Uni<Void> count(List<ViewerEvent> events, Map<RollupStore.SessionKey, RollupStore.Session> known) {
        Map<String, VideoDeltas> byVideo = new LinkedHashMap<>();
        Map<RollupStore.SessionKey, RollupStore.Session> touched = new LinkedHashMap<>();
        Set<RollupStore.Visit> visits = new LinkedHashSet<>();
        for (ViewerEvent event : events) {
            RollupStore.Session session = touched.computeIfAbsent(
                    new RollupStore.SessionKey(event.shareId(), event.session()),
                    key -> known.getOrDefault(key, new RollupStore.Session(key.shareId(), key.session(),
                            event.at().atZone(ZoneOffset.UTC).toLocalDate())));
            VideoDeltas video = byVideo.computeIfAbsent(event.shareId(), id -> new VideoDeltas(event));
            RollupStore.Visit visit = step(session, event, video);
            if (visit != null) {
                visits.add(visit);
            }
        }
        Uni<Map<RollupStore.VideoDay, Long>> unique = visits.isEmpty()
                ? Uni.createFrom().item(Map.of())
                : rollups.newVisitors(visits);
        return unique.invoke(fresh -> fresh.forEach((videoDay, count) -> byVideo.get(videoDay.shareId())
                .day(videoDay.day()).uniqueViewers += count))
                .flatMap(ignored -> rollups.upsertSessions(touched.values()))
                .flatMap(ignored -> Multi.createFrom().iterable(byVideo.values()).onItem()
                        .transformToUniAndConcatenate(this::store).collect().last())
                .replaceWithVoid();
    }

    /**
     * One event's new steps, added to its video's deltas. Answers the visit to record when the event is a page view's
     * first view with a visitor hash (a unique viewer if it is the visitor's first of the video that day).
     */
    private static RollupStore.Visit step(RollupStore.Session session, ViewerEvent event, VideoDeltas video) {
        LocalDate day = event.at().atZone(ZoneOffset.UTC).toLocalDate();
        Day counts = video.day(day);
        if (event.bot()) {
            if (event.kind() == ViewerEvent.Kind.view && !session.viewed) {
                session.viewed = true;
                session.bot = true;
                counts.botViews++;
            }
            return null;
        }
        if (event.secondsWatched() != null && event.secondsWatched() > session.secondsWatched) {
            counts.seconds += event.secondsWatched() - session.secondsWatched;
            session.secondsWatched = event.secondsWatched();
        }
        switch (event.kind()) {
            case view -> {
                if (!session.viewed) {
                    session.viewed = true;
                    counts.views++;
                    video.firstViewAt = video.firstViewAt == null ? event.at() : video.firstViewAt;
                    if (event.visitor() != null) {
                        return new RollupStore.Visit(event.shareId(), day, event.visitor());
                    }
                }
            }
            case play -> {
                if (!session.played) {
                    session.played = true;
                    counts.plays++;
                }
            }
            case progress -> reach(session, event.percent() == null ? 0 : event.percent(), counts);
            case complete -> {
                reach(session, 100, counts);
                if (!session.completed) {
                    session.completed = true;
                    counts.completions++;
                }
            }
            case cta_click -> {
                if (!session.clicked) {
                    session.clicked = true;
                    counts.ctaClicks++;
                    video.clicks.add(event);
                }
            }
        }
        return null;
    }

    /** Moves a session's furthest point to {@code percent}: every 25/50/75 step passed on the way counts once. */
    private static void reach(RollupStore.Session session, int percent, Day counts) {
        if (percent <= session.maxPercent) {
            return;
        }
        for (int step : STEPS) {
            if (session.maxPercent < step && percent >= step) {
                switch (step) {
                    case 25 -> counts.progress25++;
                    case 50 -> counts.progress50++;
                    default -> counts.progress75++;
                }
            }
        }
        counts.percentSum += percent - session.maxPercent;
        session.maxPercent = percent;
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

    private Uni<Void> milestones(VideoDeltas video, RollupStore.Deltas added, long[] before) {
        List<String> reached = new ArrayList<>();
        if (before[0] == 0 && added.views() > 0) {
            reached.add(EngagementMilestone.VIEWED);
        }
        if (before[1] == 0 && added.completions() > 0) {
            reached.add(EngagementMilestone.COMPLETED);
        }
        video.clicks.forEach(click -> reached.add(EngagementMilestone.CTA_CLICKED));
        if (reached.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return videos.byShare(video.shareId).flatMap(row -> Multi.createFrom().iterable(reached).onItem()
                .transformToUniAndConcatenate(type -> publisher.publish(new EngagementMilestone(type, video.clientId,
                        video.shareId, row == null ? null : row.serviceRequestId, row == null ? null : row.taskId,
                        row == null ? null : row.rowNo, row == null ? null : row.campaignId,
                        row == null ? null : row.templateId, row == null ? null : row.userId,
                        before[0] + added.views(), before[1] + added.completions(), added.ctaClicks(),
                        Instant.now())))
                .collect().last().replaceWithVoid());
    }

    /** The counters one batch adds to a video, by day, and its clicks. */
    private static final class VideoDeltas {

        final String shareId;
        final UUID clientId;
        final Map<LocalDate, Day> days = new LinkedHashMap<>();
        final List<ViewerEvent> clicks = new ArrayList<>();
        Instant firstViewAt;

        VideoDeltas(ViewerEvent first) {
            this.shareId = first.shareId();
            this.clientId = first.clientId();
        }

        Day day(LocalDate day) {
            return days.computeIfAbsent(day, ignored -> new Day());
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
        long percentSum;
        double seconds;

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
            percentSum += other.percentSum;
            seconds += other.seconds;
        }

        RollupStore.Deltas deltas(Instant firstViewAt) {
            return new RollupStore.Deltas(views, uniqueViewers, plays, progress25, progress50, progress75, completions,
                    ctaClicks, botViews, percentSum, seconds, firstViewAt);
        }
    }
}
