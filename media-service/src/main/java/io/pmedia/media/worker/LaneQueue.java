package io.pmedia.media.worker;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import io.pmedia.events.RenderLane;

/**
 * The jobs fetched from both lanes and not yet started, shared by the coordinator (which adds them) and the render
 * slots (which take them). A free slot always takes the oldest realtime job first; a batch job only when no realtime
 * job waits. Thread-safe.
 */
final class LaneQueue {

    /** A fetched job: its lane and its Kafka record. */
    record Job(RenderLane lane, ConsumerRecord<String, String> record) {

        TopicPartition partition() {
            return new TopicPartition(record.topic(), record.partition());
        }
    }

    private final Map<RenderLane, Deque<Job>> waiting = new EnumMap<>(RenderLane.class);
    private boolean closed;

    LaneQueue() {
        for (RenderLane lane : RenderLane.values()) {
            waiting.put(lane, new ArrayDeque<>());
        }
    }

    synchronized void add(Job job) {
        waiting.get(job.lane()).addLast(job);
        notifyAll();
    }

    /** The next job, realtime before batch; waits for one. Null once closed. */
    synchronized Job take() throws InterruptedException {
        while (!closed) {
            Job job = waiting.get(RenderLane.REALTIME).pollFirst();
            if (job == null) {
                job = waiting.get(RenderLane.BATCH).pollFirst();
            }
            if (job != null) {
                return job;
            }
            wait();
        }
        return null;
    }

    synchronized int waiting(RenderLane lane) {
        return waiting.get(lane).size();
    }

    /** Forgets the jobs of partitions this replica no longer owns (their new owner fetches them again). */
    synchronized void drop(RenderLane lane, Collection<TopicPartition> partitions) {
        waiting.get(lane).removeIf(job -> partitions.contains(job.partition()));
    }

    /** Wakes every slot waiting in {@link #take()}: they get null and stop. Jobs still waiting stay uncommitted. */
    synchronized void close() {
        closed = true;
        notifyAll();
    }
}
