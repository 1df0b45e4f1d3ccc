package dev.tclab.lesson.markdown;

import com.vladsch.flexmark.html.HtmlRenderer;
import com.vladsch.flexmark.parser.Parser;
import com.vladsch.flexmark.util.data.DataHolder;
import com.vladsch.flexmark.util.data.MutableDataSet;

/** Short author texts (quiz questions, options, explanations) as HTML, with raw HTML escaped. */
final class InlineMarkdown {

    private static final DataHolder OPTIONS =
            new MutableDataSet().set(HtmlRenderer.ESCAPE_HTML, true).toImmutable();
    private static final Parser PARSER = Parser.builder(OPTIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder(OPTIONS).build();

    private InlineMarkdown() {}

    /** The text's HTML; a single paragraph loses its {@code <p>} so it fits in a label or legend. */
    static String html(String markdown) {
        String html = RENDERER.render(PARSER.parse(markdown)).strip();
        if (html.startsWith("<p>") && html.endsWith("</p>") && html.indexOf("<p>", 3) < 0) {
            return html.substring(3, html.length() - 4);
        }
        return html;
    }
}
