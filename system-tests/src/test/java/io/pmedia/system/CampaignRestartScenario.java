package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

import io.pmedia.events.CampaignStatus;
import io.pmedia.events.CampaignStatusChanged;
import io.pmedia.events.Topics;
import io.pmedia.system.Stack.Vendor;
import io.pmedia.testing.Patience;

/**
 * campaign-restart: campaign-service is down when a campaign's start time passes. When it is back, the transition
 * to ACTIVE fires once (one event on pmedia.campaign.status), and a batch task that waited for the campaign starts and
 * completes.
 */
class CampaignRestartScenario {

    @Test
    void aTransitionMissedWhileDownFiresOnceOnRestartAndTheWaitingTaskRuns() {
        Vendor vendor = Stack.onboard("chaos campaign-restart");
        String campaign = "chaos-" + UUID.randomUUID();
        Instant start = Instant.now().plusSeconds(15).truncatedTo(ChronoUnit.SECONDS);
        try (KafkaConsumer<String, String> events = consumerAtTheEnd()) {
            vendor.json(Map.of("start_time", start.toString(), "end_time", start.plus(Duration.ofHours(1)).toString()))
                    .post("/campaigns/" + campaign + "/schedule").then().statusCode(200);
            // The window reaches batch-service as an event: the task is created once batch has consumed it.
            ConsumerRecord<String, String> scheduled = next(events, vendor, campaign, CampaignStatus.SCHEDULED);
            batchHasConsumed(scheduled);
            String input = Stack.upload(vendor, "customers.csv",
                    "user-id,name\nc-1,Ada\nc-2,Grace\n".getBytes(StandardCharsets.UTF_8));
            String task = vendor.json(Map.of("campaign-id", campaign, "template-id", ChaosTemplates.tinyId(),
                    "file-path", input, "row-count", 2, "expected-output-duration", 10)).post("/media/task/create")
                    .then().statusCode(200).extract().path("task-id");

            Chaos.pmedia("stop", "campaign");
            assertThat(Instant.now()).as("campaign-service stopped before the start time").isBefore(start);
            Duration untilAfterStart = Duration.between(Instant.now(), start.plusSeconds(3));
            if (!untilAfterStart.isNegative()) {
                Patience.await().pollDelay(untilAfterStart).atMost(untilAfterStart.plusSeconds(1)).until(() -> true);
            }
            assertThat(vendor.call().get("/media/task/status/" + task).then().statusCode(200).extract()
                    .<String>path("status")).as("the task waits for its campaign").isEqualTo("PENDING");
            Chaos.pmedia("start", "campaign");
            Instant back = Instant.now();
            Patience.await().pollInterval(Duration.ofMillis(250))
                    .until(() -> "ACTIVE".equals(vendor.call().get("/campaigns/" + campaign + "/schedule").then()
                            .extract().path("status")));
            double recovery = Duration.between(back, Instant.now()).toMillis() / 1000.0;
            String taskStatus = Stack.finalTask(vendor, task).getString("status");

            List<CampaignStatus> transitions = new ArrayList<>();
            Patience.await().until(() -> {
                for (ConsumerRecord<String, String> record : events.poll(Duration.ofMillis(500))) {
                    NotifierKillScenario.CODEC.data(NotifierKillScenario.CODEC.read(record.value()),
                            CampaignStatusChanged.class)
                            .filter(changed -> changed.clientId().equals(vendor.id())
                                    && changed.campaignId().equals(campaign))
                            .ifPresent(changed -> transitions.add(changed.status()));
                }
                return transitions.contains(CampaignStatus.ACTIVE);
            });
            events.poll(Duration.ofSeconds(2)).forEach(record -> NotifierKillScenario.CODEC
                    .data(NotifierKillScenario.CODEC.read(record.value()), CampaignStatusChanged.class)
                    .filter(changed -> changed.campaignId().equals(campaign))
                    .ifPresent(changed -> transitions.add(changed.status())));
            long activations = transitions.stream().filter(CampaignStatus.ACTIVE::equals).count();

            String line = Chaos.report("campaign-restart", 1, taskStatus.equals("COMPLETED") ? 1 : 0, 0,
                    taskStatus.equals("COMPLETED") ? 0 : 1, (int) Math.max(0, activations - 1), recovery,
                    "campaign-service down across the start time; transitions seen " + transitions
                            + ", batch task " + taskStatus);
            assertThat(activations).as(line).isEqualTo(1);
            assertThat(taskStatus).as(line).isEqualTo("COMPLETED");
            Stack.delete(vendor);
        } finally {
            Chaos.pmedia("start", "campaign");
        }
    }

    private static ConsumerRecord<String, String> next(KafkaConsumer<String, String> events, Vendor vendor,
            String campaign, CampaignStatus status) {
        List<ConsumerRecord<String, String>> found = new ArrayList<>();
        Patience.await().until(() -> {
            for (ConsumerRecord<String, String> record : events.poll(Duration.ofMillis(200))) {
                NotifierKillScenario.CODEC.data(NotifierKillScenario.CODEC.read(record.value()),
                        CampaignStatusChanged.class)
                        .filter(changed -> changed.clientId().equals(vendor.id())
                                && changed.campaignId().equals(campaign) && changed.status() == status)
                        .ifPresent(changed -> found.add(record));
            }
            return !found.isEmpty();
        });
        return found.get(0);
    }

    /** Waits until batch-service's consumer group has committed past {@code record}. */
    private static void batchHasConsumed(ConsumerRecord<String, String> record) {
        // As batch-service, whose consumer group it is (its KafkaUser may read the topic and the group).
        Properties properties = Stack.kafka("pmedia-batch");
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        try (Admin admin = Admin.create(properties)) {
            Patience.await().pollInterval(Duration.ofMillis(200)).until(() -> {
                var committed = admin.listConsumerGroupOffsets("pmedia-batch-campaigns")
                        .partitionsToOffsetAndMetadata().get().get(partition);
                return committed != null && committed.offset() > record.offset();
            });
        }
    }

    /** A consumer of pmedia.campaign.status positioned at the end of every partition, before the scenario acts. */
    private static KafkaConsumer<String, String> consumerAtTheEnd() {
        // As batch-service, which reads this topic (assigned partitions: no consumer group of its own).
        Properties properties = Stack.kafka("pmedia-batch");
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(properties, new StringDeserializer(),
                new StringDeserializer());
        List<TopicPartition> partitions = consumer.partitionsFor(Topics.CAMPAIGN_STATUS).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        return consumer;
    }
}
