package io.pmedia.media.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

import io.pmedia.events.FrameSegment;
import io.pmedia.events.RenderInput;

/**
 * Builds a {@link RenderInput} from a realtime request, in either form, checking what only the form itself can get
 * wrong; the template decides the rest in {@link TemplateResolver}.
 */
public final class RenderInputs {

    private RenderInputs() {
    }

    /**
     * From the current form's {@code data} (interface 2.3). Field values may be strings, numbers or booleans.
     *
     * @throws TemplateResolutionException when a value has a shape the form does not allow
     */
    public static RenderInput fromCurrentForm(MediaData data) {
        if (data == null) {
            return RenderInput.empty();
        }
        Map<String, String> fields = new LinkedHashMap<>();
        if (data.personalizationFields() != null) {
            data.personalizationFields().forEach((name, value) -> {
                if (value != null && value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue())) {
                    // 1e400: JSON allows it, a double holds no such number (it was a 500)
                    throw new TemplateResolutionException("personalization field '" + name + "' is a number beyond"
                            + " what a double holds (about 1.8e308 at most): send it as a string");
                }
                String text = text(value);
                if (text == null && value != null && !value.isNull()) {
                    throw new TemplateResolutionException(
                            "personalization field '" + name + "' must be a string, a number or a boolean");
                }
                if (text != null) {
                    fields.put(name, text);
                }
            });
        }
        List<String> cohorts = new ArrayList<>();
        List<MediaData.Cohort> given = data.globalCohorts() == null ? List.of() : data.globalCohorts();
        for (int i = 0; i < given.size(); i++) {
            MediaData.Cohort cohort = given.get(i);
            if (cohort == null || VendorInput.isBlank(cohort.cohort())) {
                throw new TemplateResolutionException("global_cohorts[" + i + "].cohort is required");
            }
            cohorts.add(cohort.cohort().strip());
        }
        List<FrameSegment> directives = data.frameSegments() == null ? List.of() : data.frameSegments();
        for (int i = 0; i < directives.size(); i++) {
            if (directives.get(i) == null) {
                throw new TemplateResolutionException("frame_segments[" + i + "] must be an object");
            }
        }
        MediaData.GlobalAssets assets = data.globalAssets();
        return new RenderInput(fields, assets == null ? null : assets.images(),
                assets == null ? null : assets.videos(), assets == null ? null : assets.icons(), cohorts, directives);
    }

    /**
     * From the earlier form (interface 2.4, {@code POST /video/demo}): each position of each list fills what the
     * template's {@code earlier-form} maps it to (see {@link TemplateDefinition.EarlierForm} for the defaults).
     * Checks what only this form can get wrong, in its own names: a position the template does not take, a URL that
     * is not http(s), a required field or slot left empty.
     *
     * @throws TemplateResolutionException naming the list and position at fault
     */
    public static RenderInput fromEarlierForm(List<String> phraseTexts, List<String> imageTexts,
            List<String> videoTexts, List<String> imageUrls, List<String> videoUrls, TemplateDefinition template) {
        EarlierFormMapping mapping = EarlierFormMapping.of(template);
        Map<String, String> fields = new LinkedHashMap<>();
        fillFields(fields, "phrase-texts", mapping.phraseTexts(), phraseTexts, template);
        fillFields(fields, "image-texts", mapping.imageTexts(), imageTexts, template);
        fillFields(fields, "video-texts", mapping.videoTexts(), videoTexts, template);

        Map<AssetKind, List<String>> slots = new LinkedHashMap<>();
        for (AssetKind kind : AssetKind.SLOTS) {
            List<String> urls = new ArrayList<>();
            template.assetsOrEmpty().of(kind).forEach(slot -> urls.add(""));
            slots.put(kind, urls);
        }
        fillSlots(slots, "image-urls", mapping.imageUrls(), imageUrls, template);
        fillSlots(slots, "video-urls", mapping.videoUrls(), videoUrls, template);

        String useCase = "use case '" + template.useCaseId() + "'";
        for (TemplateDefinition.Field field : template.fieldsOrEmpty()) {
            if (field.requiredOrFalse() && VendorInput.isBlank(fields.get(field.name()))) {
                String position = mapping.textPositionOf(field.name());
                throw new TemplateResolutionException(position != null
                        ? position + " is required by " + useCase
                        : "field '" + field.name() + "' is required by " + useCase
                                + ", and the earlier request form cannot fill it");
            }
        }
        for (AssetKind kind : AssetKind.SLOTS) {
            List<TemplateDefinition.AssetSlot> declared = template.assetsOrEmpty().of(kind);
            for (int i = 0; i < declared.size(); i++) {
                TemplateDefinition.AssetSlot slot = declared.get(i);
                if (slot.requiredOrFalse() && slots.get(kind).get(i).isEmpty()) {
                    String position = mapping.urlPositionOf(kind, i);
                    throw new TemplateResolutionException(position != null
                            ? position + " is required by " + useCase
                            : "slot " + kind.listName() + "[" + i + "] is required by " + useCase
                                    + ", and the earlier request form cannot fill it");
                }
            }
        }
        return new RenderInput(fields, slots.get(AssetKind.IMAGE), slots.get(AssetKind.VIDEO),
                slots.get(AssetKind.ICON), List.of(), List.of());
    }

    private static void fillFields(Map<String, String> fields, String list, List<String> names, List<String> values,
            TemplateDefinition template) {
        if (values == null) {
            return;
        }
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null || values.get(i).isEmpty()) {
                continue;
            }
            if (i >= names.size()) {
                throw new TemplateResolutionException(list + "[" + i + "]: use case '" + template.useCaseId()
                        + "' takes " + count(names.size(), list));
            }
            fields.put(names.get(i), values.get(i));
        }
    }

    private static void fillSlots(Map<AssetKind, List<String>> slots, String list,
            List<EarlierFormMapping.SlotRef> refs, List<String> values, TemplateDefinition template) {
        if (values == null) {
            return;
        }
        for (int i = 0; i < values.size(); i++) {
            if (VendorInput.isBlank(values.get(i))) {
                continue;
            }
            if (i >= refs.size()) {
                throw new TemplateResolutionException(list + "[" + i + "]: use case '" + template.useCaseId()
                        + "' takes " + count(refs.size(), list));
            }
            String url = VendorInput.requireAssetUrl(values.get(i), list + "[" + i + "]");
            EarlierFormMapping.SlotRef ref = refs.get(i);
            slots.get(ref.kind()).set(ref.index(), url);
        }
    }

    private static String count(int n, String list) {
        return n == 0 ? "no " + list : "at most " + n + " " + list;
    }

    private static String text(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual() || value.isBoolean() || value.isIntegralNumber()) {
            return value.asText();
        }
        if (value.isNumber()) {
            return value.decimalValue().stripTrailingZeros().toPlainString();
        }
        return null;
    }

}
