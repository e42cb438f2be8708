// The instructor's home page: the cohorts (with a form to open one), every
// dossier with its lint status, validation (live, with its progress) and a
// preview as a learner sees it, and where each dossier trips every learner up.
import { h, replace } from '../lib/dom';
import { instructorApi } from '../lib/instructor-api';
import { go } from '../lib/nav';
import type { InstructorDossier } from '../lib/instructor-types';
import { cohortForm, cohortList } from './instructor-cohorts';
import { instructorShell } from './instructor-shell';
import { insightsView } from './insights-view';
import { dossierTable } from './instructor-table';

/** Opens a throwaway preview of a dossier (a new one each time) and goes to it. */
export async function openPreview(slug: string): Promise<void> {
  go((await instructorApi.preview(slug)).path);
}

/** Renders the instructor page into root. */
export async function instructorPage(root: HTMLElement): Promise<() => void> {
  return instructorShell(root, 'Dossiers and cohorts', (f) => {
    let dossiers: InstructorDossier[] = [];
    const cohorts = h('div', { class: 'cohort-list', 'aria-busy': 'true' });
    const holder = h('div', { class: 'instructor-list', 'aria-busy': 'true' });
    const opened = new Map<string, boolean>(); // dossiers whose validation history is open
    const formHolder = h('div', { class: 'cohort-form-holder' });
    const overall = h('div', { class: 'insights-holder', 'aria-busy': 'true' });
    const refreshOverall = async (): Promise<void> => {
      const list = await instructorApi.allInsights();
      overall.setAttribute('aria-busy', 'false');
      replace(overall, insightsView(list.filter((i) => i.learners > 0)));
      if (!overall.querySelector('.insight')) replace(overall, h('p', { class: 'muted-strong' }, 'No learner has opened a dossier yet.'));
    };
    const validate = (slug: string): void => {
      f.say(null);
      instructorApi.validate(slug).then(() => refreshDossiers(), (err) => f.say(err));
    };
    const preview = (slug: string): void => {
      openPreview(slug).catch((err) => f.say(err));
    };
    const toggleHistory = (slug: string): void => {
      opened.set(slug, !opened.get(slug));
      void refreshDossiers();
    };
    const refreshDossiers = async (): Promise<void> => {
      dossiers = await instructorApi.dossiers();
      const open = await Promise.all(dossiers.filter((d) => opened.get(d.slug))
        .map(async (d) => [d.slug, await instructorApi.validations(d.slug)] as const));
      holder.setAttribute('aria-busy', 'false');
      replace(holder, dossierTable(dossiers, { validate, preview, toggleHistory, history: new Map(open) }));
      if (!formHolder.firstChild) {
        replace(formHolder, cohortForm(dossiers.filter((d) => d.served).map((d) => d.slug), (c) => go(`/instructor/cohorts/${c.id}`),
          (err) => f.say(err)));
      }
    };
    const refreshCohorts = async (): Promise<void> => {
      const list = await instructorApi.cohorts();
      cohorts.setAttribute('aria-busy', 'false');
      replace(cohorts, cohortList(list));
    };
    f.main.append(
      h('section', { class: 'instructor-head', id: 'cohorts' },
        h('h1', null, 'Cohorts'),
        h('p', { class: 'lead' }, 'Open a cohort for a class, share its join link, and follow each learner live: who is stuck, on what, and where each dossier trips people up.')),
      formHolder, cohorts,
      h('section', { class: 'instructor-head', id: 'dossiers' },
        h('h2', null, 'Dossiers'),
        h('p', { class: 'lead' }, 'Each dossier with its lint problems and validations. Dossiers of the --challenges folder reload within a second of an edit; Preview opens one as a new learner would, in a throwaway workspace.')),
      holder,
      h('section', { class: 'instructor-head', id: 'overall' },
        h('h2', null, 'Every learner'),
        h('p', { class: 'lead' }, 'Where each dossier trips people up, over every learner of every cohort and none (previews aside).')),
      overall);
    f.poll(async () => {
      await Promise.all([refreshDossiers(), refreshCohorts(), refreshOverall()]);
    });
  });
}
