package io.pmedia.common.kafka;

import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.jboss.logging.Logger;

import io.vertx.core.Vertx;

/**
 * How many members of a consumer group hold partitions of one topic, as the broker describes the group, kept fresh in
 * the background: the size of a pool of consumers that announce themselves by joining the group (the render workers,
 * for batch's dispatcher and media's admission of renders on view). Described every {@code every} without blocking;
 * while the group rebalances, or the broker refuses or cannot answer, the count of the last answer holds (-1 before
 * the first). Needs the Describe ACL on the group.
 */
public final class GroupMembers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(GroupMembers.class);
    /** Group states in which members' assignments are being moved. */
    private static final Set<GroupState> MOVING = EnumSet.of(GroupState.PREPARING_REBALANCE,
            GroupState.COMPLETING_REBALANCE, GroupState.ASSIGNING, GroupState.RECONCILING);

    private final String group;
    private final String topic;
    private final Admin admin;
    private final Vertx vertx;
    private final long timer;
    private final AtomicBoolean asking = new AtomicBoolean();
    private volatile int members = -1;
    private volatile boolean warned;

    private GroupMembers(Map<String, Object> kafka, String client, String group, String topic, Duration every,
            Vertx vertx) {
        this.group = group;
        this.topic = topic;
        this.vertx = vertx;
        // the service's kafka.* settings (TLS and SASL included), as its channels and outbox relay use them
        Map<String, Object> settings = new HashMap<>(kafka);
        settings.put(AdminClientConfig.CLIENT_ID_CONFIG, client + "-" + UUID.randomUUID());
        this.admin = Admin.create(settings);
        refresh();
        this.timer = vertx.setPeriodic(every.toMillis(), id -> refresh());
    }

    /** Starts watching {@code group}'s members on {@code topic}; {@code client} prefixes the admin client's id. */
    public static GroupMembers watch(Map<String, Object> kafka, String client, String group, String topic,
            Duration every, Vertx vertx) {
        return new GroupMembers(kafka, client, group, topic, every, vertx);
    }

    /** Members holding partitions of the topic at the last description; -1 before the first one. */
    public int count() {
        return members;
    }

    /** Asks the broker again, unless the last question is still unanswered. */
    public void refresh() {
        if (!asking.compareAndSet(false, true)) {
            return;
        }
        admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).whenComplete((described, error) -> {
            Throwable failure = error instanceof CompletionException && error.getCause() != null
                    ? error.getCause()
                    : error;
            try {
                if (failure instanceof GroupIdNotFoundException) {
                    counted(0);
                } else if (failure != null) {
                    if (!warned) {
                        warned = true;
                        LOG.warnf("cannot describe the consumer group %s (%s); counting %d member(s) on %s",
                                group, failure.getMessage(), members, topic);
                    }
                } else if (!MOVING.contains(described.groupState())) {
                    counted((int) described.members().stream()
                            .filter(member -> member.assignment().topicPartitions().stream()
                                    .anyMatch(partition -> topic.equals(partition.topic())))
                            .count());
                }
                // while assignments move, the count of a moment ago holds
            } finally {
                asking.set(false);
            }
        });
    }

    private void counted(int seen) {
        int before = members;
        members = seen;
        warned = false;
        if (seen != before) {
            LOG.infof("%d member(s) of %s on %s", seen, group, topic);
        }
    }

    @Override
    public void close() {
        vertx.cancelTimer(timer);
        admin.close(Duration.ofSeconds(2));
    }
}
