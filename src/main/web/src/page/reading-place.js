// Where the learner was reading in a lesson: a reload (or coming back in the same tab) returns there instead of to
// the top of a long lesson. Kept per lesson for the tab's life (sessionStorage); a link to a place on the page
// (#step-2, a quiz answered without JavaScript) wins.
const article = document.querySelector('.lesson-layout > .lesson');
const lesson = document.getElementById('lab-panel')?.dataset.lesson;

// Side by side the lesson scrolls in its own column; on a narrow screen the window scrolls.
function scroller() {
  return getComputedStyle(article).overflowY === 'auto' ? article : document.scrollingElement;
}

if (article && lesson) {
  const key = `tclab.readingPlace.${lesson}`;
  const saved = Number(sessionStorage.getItem(key));
  if (saved > 0 && !location.hash) scroller().scrollTop = saved;
  let pending = null;
  const save = () => {
    pending = null;
    sessionStorage.setItem(key, String(Math.round(scroller().scrollTop)));
  };
  for (const target of [article, window]) {
    target.addEventListener('scroll', () => { pending ??= setTimeout(save, 250); }, { passive: true });
  }
}
