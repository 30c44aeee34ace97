package io.pmedia.gateway;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;

/**
 * A vendor onboarded by the operator. Only hashes of the client secret and API key are kept. A deleted client is
 * kept (soft delete) for audit, but reads as absent everywhere and its tokens stop working.
 */
@Entity
@Table(name = "client")
public class Client extends PanacheEntityBase {

    @Id
    public UUID id;

    @Column(nullable = false)
    public String name;

    @Column(name = "secret_hash", nullable = false)
    public String secretHash;

    @Column(name = "api_key_hash", nullable = false, unique = true)
    public String apiKeyHash;

    @Column(name = "webhook_url")
    public String webhookUrl;

    @Column(name = "webhook_secret", nullable = false)
    public String webhookSecret;

    @Column(name = "previous_webhook_secret")
    public String previousWebhookSecret;

    @Column(name = "previous_webhook_expires_at")
    public Instant previousWebhookExpiresAt;

    /** The events the webhook endpoint subscribes to, one wire name a line ({@code WebhookEventType}). */
    @Column(name = "webhook_event_types", nullable = false)
    public String webhookEventTypes = "video.push";

    /** Addresses and CIDR ranges allowed to use {@code GET /getToken}, one per line. */
    @Column(name = "allowed_ips", nullable = false)
    public String allowedIps = "";

    /** Days its videos and share links live; null: the platform's default (docs/sharing.md). */
    @Column(name = "share_retention_days")
    public Integer shareRetentionDays;

    @Column(name = "brand_logo_url")
    public String brandLogoUrl;

    @Column(name = "brand_color")
    public String brandColor;

    /** Origins ({@code https://shop.example}) that may frame the vendor's embed player, space-separated. */
    @Column(name = "embed_origins", nullable = false)
    public String embedOrigins = "";

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @Column(name = "deleted_at")
    public Instant deletedAt;

    public List<String> embedOriginList() {
        return embedOrigins == null || embedOrigins.isBlank() ? List.of() : List.of(embedOrigins.split(" "));
    }

    public List<String> allowedIpList() {
        return allowedIps == null || allowedIps.isEmpty() ? List.of() : Arrays.asList(allowedIps.split("\n"));
    }

    public void allowedIpList(List<String> values) {
        allowedIps = String.join("\n", values);
    }

    public List<String> webhookEventTypeList() {
        return webhookEventTypes == null || webhookEventTypes.isEmpty()
                ? List.of()
                : Arrays.asList(webhookEventTypes.split("\n"));
    }

    public void webhookEventTypeList(List<String> values) {
        webhookEventTypes = String.join("\n", values);
    }

    /** The webhook secrets that sign a push now: the current one, and the previous one until its overlap ends. */
    public List<WebhookSecretInUse> signingSecrets(Instant now) {
        List<WebhookSecretInUse> secrets = new java.util.ArrayList<>();
        secrets.add(new WebhookSecretInUse(webhookSecret, null));
        if (previousWebhookSecret != null && previousWebhookExpiresAt != null
                && previousWebhookExpiresAt.isAfter(now)) {
            secrets.add(new WebhookSecretInUse(previousWebhookSecret, previousWebhookExpiresAt));
        }
        return secrets;
    }

    /** A webhook secret and until when it signs (null: until it is rotated). */
    public record WebhookSecretInUse(String secret, Instant expiresAt) {
    }

}
