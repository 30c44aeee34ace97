package io.pmedia.media.messaging;

import java.util.List;
import java.util.Map;
import java.util.Properties;
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
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.pmedia.media.config.MediaConfig;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Makes sure the job topic has enough partitions for every render worker of every replica to get a share (a consumer
 * group cannot spread one partition over two consumers): creates it, or adds partitions when an auto-created topic
 * has too few. In the background, so a broker that is down delays nothing; the outbox keeps the jobs meanwhile.
 */
@ApplicationScoped
public class RenderTopicSetup {

    private static final Logger LOG = Logger.getLogger(RenderTopicSetup.class);

    private final String bootstrap;
    private final MediaConfig config;

    public RenderTopicSetup(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap, MediaConfig config) {
        this.bootstrap = bootstrap;
        this.config = config;
    }

    void onStart(@Observes @Priority(10) StartupEvent event) {
        Infrastructure.getDefaultWorkerPool().execute(this::ensure);
    }

    void ensure() {
        int wanted = config.render().jobPartitions();
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
        try (Admin admin = Admin.create(props)) {
            try {
                admin.createTopics(List.of(new NewTopic(RenderTopics.JOBS, wanted, (short) -1))).all()
                        .get(30, TimeUnit.SECONDS);
                LOG.infof("created %s with %d partitions", RenderTopics.JOBS, wanted);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            TopicDescription topic = admin.describeTopics(List.of(RenderTopics.JOBS)).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(RenderTopics.JOBS);
            if (topic.partitions().size() < wanted) {
                admin.createPartitions(Map.of(RenderTopics.JOBS, NewPartitions.increaseTo(wanted))).all()
                        .get(30, TimeUnit.SECONDS);
                LOG.infof("%s grown from %d to %d partitions", RenderTopics.JOBS, topic.partitions().size(), wanted);
            }
        } catch (ExecutionException | TimeoutException e) {
            LOG.warnf("cannot check the partitions of %s (%s); render work is shared by partition, so with fewer "
                    + "partitions than workers some workers idle", RenderTopics.JOBS, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
