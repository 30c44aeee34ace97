package io.pmedia.media.template;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.pmedia.events.SharePage;

/**
 * A template's share page settings (docs/sharing.md): the call to action, the branding and the retention, checked at
 * registration (filled for one customer's page by {@link SharePage}, where the video ends). Vendor text in them is data: the page escapes it, the URL gets
 * its placeholders percent-encoded and must still be an http(s) URL once filled.
 */
public final class ShareRules {

    static final int MAX_LABEL = 60;
    static final int MIN_RETENTION_DAYS = 1;
    static final int MAX_RETENTION_DAYS = 3650;
    private static final Pattern SIX_DIGIT_COLOR = Pattern.compile("#[0-9a-fA-F]{6}");

    private ShareRules() {
    }

    static void check(TemplateDefinition template, Set<String> fieldNames, List<String> problems) {
        TemplateDefinition.Cta cta = template.cta();
        if (cta != null) {
            if (cta.label() == null || cta.label().isBlank() || cta.label().length() > MAX_LABEL) {
                problems.add("cta.label: required, at most " + MAX_LABEL + " characters");
            } else {
                placeholders(cta.label(), "cta.label", fieldNames, problems);
            }
            if (cta.url() == null || !VendorInput.isHttpUrl(fill(cta.url(), name -> "x", true))) {
                problems.add("cta.url: an http(s) URL (placeholders allowed)");
            } else {
                placeholders(cta.url(), "cta.url", fieldNames, problems);
            }
        }
        TemplateDefinition.Branding branding = template.branding();
        if (branding != null) {
            if (branding.logoUrl() != null && !VendorInput.isHttpUrl(branding.logoUrl())) {
                problems.add("branding.logo-url: an http(s) URL of an image");
            }
            if (branding.color() != null && !SIX_DIGIT_COLOR.matcher(branding.color()).matches()) {
                problems.add("branding.color: a colour #rrggbb, like #1d3557");
            }
        }
        Integer days = template.retentionDays();
        if (days != null && (days < MIN_RETENTION_DAYS || days > MAX_RETENTION_DAYS)) {
            problems.add("retention-days: " + MIN_RETENTION_DAYS + " to " + MAX_RETENTION_DAYS);
        }
    }

    /** {@code text} with each {@code {{field}}} replaced; in a URL, the value percent-encoded. */
    static String fill(String text, Function<String, String> value, boolean url) {
        return SharePage.fill(text, value, url);
    }

    private static void placeholders(String text, String path, Set<String> fieldNames, List<String> problems) {
        Matcher placeholder = Placeholders.PATTERN.matcher(text);
        while (placeholder.find()) {
            if (!fieldNames.contains(placeholder.group(1))) {
                problems.add(path + ": {{" + placeholder.group(1) + "}} is not a declared field");
            }
        }
    }
}
