package io.pmedia.media.worker;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jboss.logging.Logger;

import io.pmedia.events.RenderLane;
import io.pmedia.media.config.MediaConfig;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Makes sure the job topic of each render lane has enough partitions for every render worker of every replica to get a share (a consumer
 * group cannot spread one partition over two consumers): creates it, or adds partitions when an auto-created topic
 * has too few. In the background, so a broker that is down delays nothing; the outbox keeps the jobs meanwhile. It
 * connects with the service's {@code kafka.*} settings, as the channels do (TLS and SASL included).
 */
@ApplicationScoped
public class RenderTopicSetup {

    private static final Logger LOG = Logger.getLogger(RenderTopicSetup.class);

    private final Map<String, Object> kafka;
    private final MediaConfig config;

    public RenderTopicSetup(@Identifier("default-kafka-broker") Map<String, Object> kafka, MediaConfig config) {
        this.kafka = kafka;
        this.config = config;
    }

    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (!config.render().topicSetup()) {
            LOG.info("render job topics are managed outside (PMEDIA_MEDIA_RENDER_TOPIC_SETUP=false)");
            return;
        }
        Infrastructure.getDefaultWorkerPool().execute(this::ensure);
    }

    void ensure() {
        Map<String, Object> settings = new HashMap<>(kafka);
        settings.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        try (Admin admin = Admin.create(settings)) {
            for (RenderLane lane : RenderLane.values()) {
                ensure(admin, lane.topic(), config.render().jobPartitions());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void ensure(Admin admin, String name, int wanted) throws InterruptedException {
        try {
            try {
                admin.createTopics(List.of(new NewTopic(name, wanted, (short) -1))).all().get(30, TimeUnit.SECONDS);
                LOG.infof("created %s with %d partitions", name, wanted);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            TopicDescription topic = admin.describeTopics(List.of(name)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(name);
            if (topic.partitions().size() < wanted) {
                admin.createPartitions(Map.of(name, NewPartitions.increaseTo(wanted))).all().get(30, TimeUnit.SECONDS);
                LOG.infof("%s grown from %d to %d partitions", name, topic.partitions().size(), wanted);
            }
        } catch (ExecutionException | TimeoutException e) {
            LOG.warnf("cannot check the partitions of %s (%s); render work is shared by partition, so with fewer "
                    + "partitions than workers some workers idle", name, e.getMessage());
        }
    }
}
