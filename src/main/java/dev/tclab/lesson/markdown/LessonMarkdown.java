package dev.tclab.lesson.markdown;

import com.vladsch.flexmark.ext.tables.TablesExtension;
import com.vladsch.flexmark.html.HtmlRenderer;
import com.vladsch.flexmark.parser.Parser;
import com.vladsch.flexmark.util.ast.Document;
import com.vladsch.flexmark.util.data.DataHolder;
import com.vladsch.flexmark.util.data.DataKey;
import com.vladsch.flexmark.util.data.MutableDataSet;
import com.vladsch.flexmark.util.data.NullableDataKey;
import java.util.List;

/**
 * Renders lesson markdown to HTML with the lesson block extension and GitHub-flavoured tables. Raw HTML the author writes is escaped,
 * never passed through. The same pass validates: problems land in the {@link BlockContext}, and while validating
 * (every guarded block kept) so do the warnings about the text around guarded blocks.
 */
public final class LessonMarkdown {

    /** The context of the file being rendered; without it, fenced blocks stay ordinary code blocks. */
    static final NullableDataKey<BlockContext> CONTEXT = new NullableDataKey<>("TCLAB_BLOCK_CONTEXT");
    /** The file line the markdown text starts on, so problems carry file lines. */
    static final DataKey<Integer> FIRST_LINE = new DataKey<>("TCLAB_FIRST_LINE", 1);
    /** Whether the text is a prose block's body, which holds text only (no lesson blocks). */
    static final DataKey<Boolean> IN_PROSE = new DataKey<>("TCLAB_IN_PROSE", false);

    private static final DataHolder BASE = new MutableDataSet()
            .set(Parser.EXTENSIONS, List.of(LessonBlocksExtension.create(), TablesExtension.create()))
            .set(HtmlRenderer.ESCAPE_HTML, true)
            // GitHub's rules: a header row is required, and a row's extra or missing cells do not break the table.
            .set(TablesExtension.COLUMN_SPANS, false)
            .set(TablesExtension.APPEND_MISSING_COLUMNS, true)
            .set(TablesExtension.DISCARD_EXTRA_COLUMNS, true)
            .set(TablesExtension.HEADER_SEPARATOR_COLUMN_MATCH, true)
            .toImmutable();

    private LessonMarkdown() {}

    /**
     * @param markdown  the text, parameters already substituted
     * @param firstLine the file line the text starts on
     */
    public static String render(String markdown, int firstLine, BlockContext context) {
        DataHolder options = new MutableDataSet(BASE)
                .set(CONTEXT, context)
                .set(FIRST_LINE, firstLine)
                .toImmutable();
        Document document = Parser.builder(options).build().parse(markdown);
        if (context != null && context.lesson().kernelHas() == null) {
            ColonBeforeGuardedBlock.check(document, firstLine, context);
        }
        return HtmlRenderer.builder(options).build().render(document);
    }

    /** A short author text (a quiz explanation, say) as the lesson page shows it, with raw HTML escaped. */
    public static String inline(String markdown) {
        return InlineMarkdown.html(markdown);
    }
}
