package io.pmedia.batch.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.pmedia.events.RenderInput;

/** What the columns of a file mean for a template (docs/batch.md, "The input file"). */
class ColumnsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void fieldsAreMatchedWithoutCaseAndPassedUnderTheTemplatesSpellingAndEveryValueIsText() throws Exception {
        Columns columns = Columns.of(List.of("user-id", "firstname", "points", "vip"), template("""
                {"fields": [{"name": "firstName"}, {"name": "points"}, {"name": "vip"}]}"""));
        RenderInput input = columns.input(List.of("u-1", " Ada ", "42", "true"));
        assertThat(input.fields()).containsExactly(java.util.Map.entry("firstName", "Ada"),
                java.util.Map.entry("points", "42"), java.util.Map.entry("vip", "true"));
        assertThat(columns.userId(List.of(" u-1 ", "x"))).isEqualTo("u-1");
        assertThat(columns.unused()).isEmpty();
    }

    @Test
    void anEmptyCellIsAnAbsentFieldAndAssetColumnsFillTheTemplatesSlots() throws Exception {
        Columns columns = Columns.of(List.of("user-id", "name", "image-url", "image-url-3", "video-url"), template("""
                {"fields": [{"name": "name"}], "assets": {"images": [{}, {}, {}], "videos": [{}]}}"""));
        RenderInput input = columns.input(List.of("u-1", "", "https://a/1.png", "https://a/3.png", ""));
        assertThat(input.fields()).isEmpty();
        assertThat(input.images()).containsExactly("https://a/1.png", "", "https://a/3.png");
        assertThat(input.videos()).isEmpty();
    }

    @Test
    void columnsNoTemplateFieldUsesAreIgnoredAndNamed() throws Exception {
        Columns columns = Columns.of(List.of("user-id", "name", "color", "image-url-2", "icon-url"), template("""
                {"fields": [{"name": "name"}], "assets": {"images": [{}]}}"""));
        assertThat(columns.unused()).containsExactly("color", "image-url-2", "icon-url");
        RenderInput input = columns.input(List.of("u-1", "Ada", "red", "https://a/2.png", "https://i"));
        assertThat(input.fields()).containsOnlyKeys("name");
        assertThat(input.images()).isEmpty();
        assertThat(input.icons()).isEmpty();
    }

    private static JsonNode template(String json) throws Exception {
        return JSON.readTree(json);
    }
}
