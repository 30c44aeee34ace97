package io.pmedia.common.client;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A vendor's share page settings as the gateway's client registry keeps them ({@code GET
 * /internal/clients/{id}/sharing}; docs/sharing.md). Null values: the platform's defaults.
 *
 * @param retentionDays how long the vendor's videos and their links live
 * @param logoUrl the logo its pages show when a template names none
 * @param color its pages' accent colour ({@code #rrggbb}) when a template names none
 * @param embedOrigins the origins allowed to frame its embed player
 */
public record SharingSettings(@JsonProperty("retention-days") Integer retentionDays,
        @JsonProperty("logo-url") String logoUrl, String color,
        @JsonProperty("embed-origins") List<String> embedOrigins) {

    public static final SharingSettings DEFAULTS = new SharingSettings(null, null, null, List.of());

    public List<String> embedOriginsOrEmpty() {
        return embedOrigins == null ? List.of() : embedOrigins;
    }
}
