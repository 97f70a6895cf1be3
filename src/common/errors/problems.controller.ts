import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorator';
import { notFound } from './api-error';
import { isProblemCode, PROBLEM_CATALOG, problemSlug } from './problem-catalog';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The human-readable page behind each problem document's `type` URL. */
@ApiExcludeController()
@Auth('public')
@Controller('problems')
export class ProblemsController {
  @Get(':slug')
  @Header('Content-Type', 'text/html; charset=utf-8')
  page(@Param('slug') slug: string): string {
    const code = Object.keys(PROBLEM_CATALOG).filter(isProblemCode).find((candidate) => problemSlug(candidate) === slug);
    if (!code) throw notFound(`No problem type named ${slug}`);
    const { status, title, description } = PROBLEM_CATALOG[code];
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>
<h1>${escapeHtml(title)}</h1><p>HTTP status <strong>${status}</strong>, code <code>${escapeHtml(code)}</code>.</p>
<p>${escapeHtml(description)}</p><p>Branch on the <code>code</code> field of the problem document, not on <code>detail</code>.</p>
</body></html>`;
  }
}
