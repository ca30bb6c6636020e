import type { PixelType } from '../../../core/pixels/pixel.ts';
import { html, inlineScript, jsString, type RawHtml } from '../../shared/html/html.ts';

export { PIXEL_HOSTS, pixelCspSources, type PixelHosts } from './pixel-hosts.ts';

/** Markup that loads one vendor's pixel: a nonce-tagged script, and an image for visitors without JS where the vendor has one. */
export type PixelSnippet = (value: string, nonce: string) => string;

// The loaders follow each vendor's published base code, reshaped so that the pixel id enters the
// script once, through jsString(), and is never concatenated into code. Where the official code
// carries a <noscript> fallback it is kept, with `hidden` instead of a style attribute (which
// the CSP would refuse) and the id URL-encoded.

function noscriptImg(src: string): RawHtml {
  return html`<noscript><img src="${src}" width="1" height="1" alt="" hidden></noscript>`;
}

const enc = encodeURIComponent;

const adroll: PixelSnippet = (value, nonce) =>
  // One stored value, two AdRoll ids: "ADVERTISER-PIXEL" (AdRoll ids never contain '-').
  inlineScript(
    nonce,
    `(function(w,d,v){var p=v.split('-');w.adroll_adv_id=p[0];if(p[1])w.adroll_pix_id=p[1];w.adroll_version='2.0';
w.__adroll_loaded=true;w.adroll=w.adroll||[];w.adroll.f=['setProperties','identify','track'];
for(var a=0;a<w.adroll.f.length;a++){w.adroll[w.adroll.f[a]]=w.adroll[w.adroll.f[a]]||(function(n){return function(){w.adroll.push([n,arguments])}})(w.adroll.f[a])}
var e=d.createElement('script'),o=d.getElementsByTagName('script')[0];e.async=true;e.src='https://s.adroll.com/j/'+encodeURIComponent(p[0])+'/roundtrip.js';o.parentNode.insertBefore(e,o);
w.adroll.track('pageView')})(window,document,${jsString(value)});`,
  ).value;

const bing: PixelSnippet = (value, nonce) =>
  inlineScript(
    nonce,
    `(function(w,d,t,r,u,id){var f,n,i;w[u]=w[u]||[],f=function(){var o={ti:id,enableAutoSpaTracking:true};o.q=w[u],w[u]=new UET(o),w[u].push('pageLoad')},
n=d.createElement(t),n.src=r,n.async=1,n.onload=n.onreadystatechange=function(){var s=this.readyState;s&&s!=='loaded'&&s!=='complete'||(f(),n.onload=n.onreadystatechange=null)},
i=d.getElementsByTagName(t)[0],i.parentNode.insertBefore(n,i)})(window,document,'script','https://bat.bing.com/bat.js','uetq',${jsString(value)});`,
  ).value + noscriptImg(`https://bat.bing.com/action/0?ti=${enc(value)}&Ver=2`).value;

const facebook: PixelSnippet = (value, nonce) =>
  inlineScript(
    nonce,
    `!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};
if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;
s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');
fbq('init',${jsString(value)});fbq('track','PageView');`,
  ).value + noscriptImg(`https://www.facebook.com/tr?id=${enc(value)}&ev=PageView&noscript=1`).value;

// gtag.js serves Google Analytics and Google Ads alike; `prefix` completes a bare numeric id.
function gtag(value: string, nonce: string, prefix: string): string {
  return inlineScript(
    nonce,
    `(function(w,d,id,p){if(!new RegExp('^'+p,'i').test(id))id=p+id;w.dataLayer=w.dataLayer||[];
w.gtag=w.gtag||function(){w.dataLayer.push(arguments)};var s=d.createElement('script');s.async=true;
s.src='https://www.googletagmanager.com/gtag/js?id='+encodeURIComponent(id);d.head.appendChild(s);
w.gtag('js',new Date());w.gtag('config',id)})(window,document,${jsString(value)},${jsString(prefix)});`,
  ).value;
}

const googleAds: PixelSnippet = (value, nonce) => gtag(value, nonce, 'AW-');

// GA4 ids are "G-…"; an older "UA-…" id is passed on as stored rather than made into "G-UA-…".
const googleAnalytics: PixelSnippet = (value, nonce) => gtag(value, nonce, /^UA-/i.test(value) ? 'UA-' : 'G-');

// GTM hands its own script's nonce on to the Custom HTML tags it injects, hence setAttribute.
const googleTagManager: PixelSnippet = (value, nonce) =>
  inlineScript(
    nonce,
    `(function(w,d,s,l,i,c){if(!/^GTM-/i.test(i))i='GTM-'+i;w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});
var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+encodeURIComponent(i);
c&&j.setAttribute('nonce',c.nonce||c.getAttribute('nonce')||'');f.parentNode.insertBefore(j,f)})(window,document,'script','dataLayer',${jsString(value)},document.currentScript);`,
  ).value +
  html`<noscript><iframe src="${`https://www.googletagmanager.com/ns.html?id=${enc(/^GTM-/i.test(value) ? value : `GTM-${value}`)}`}" width="0" height="0" hidden title="Google Tag Manager"></iframe></noscript>`
    .value;

const linkedin: PixelSnippet = (value, nonce) =>
  inlineScript(
    nonce,
    `(function(w,d,id){w._linkedin_partner_id=id;w._linkedin_data_partner_ids=w._linkedin_data_partner_ids||[];w._linkedin_data_partner_ids.push(id);
if(!w.lintrk){w.lintrk=function(a,b){w.lintrk.q.push([a,b])};w.lintrk.q=[]}
var s=d.getElementsByTagName('script')[0],b=d.createElement('script');b.async=true;b.src='https://snap.licdn.com/li.lms-analytics/insight.min.js';
s.parentNode.insertBefore(b,s)})(window,document,${jsString(value)});`,
  ).value + noscriptImg(`https://px.ads.linkedin.com/collect/?pid=${enc(value)}&fmt=gif`).value;

const pinterest: PixelSnippet = (value, nonce) =>
  inlineScript(
    nonce,
    `!function(e){if(!window.pintrk){window.pintrk=function(){window.pintrk.queue.push(Array.prototype.slice.call(arguments))};
var n=window.pintrk;n.queue=[],n.version='3.0';var t=document.createElement('script');t.async=!0,t.src=e;
var r=document.getElementsByTagName('script')[0];r.parentNode.insertBefore(t,r)}}('https://s.pinimg.com/ct/core.js');
pintrk('load',${jsString(value)});pintrk('page');`,
  ).value + noscriptImg(`https://ct.pinterest.com/v3/?event=init&tid=${enc(value)}&noscript=1`).value;

const quora: PixelSnippet = (value, nonce) =>
  inlineScript(
    nonce,
    `!function(q,e,v,n,t,s){if(q.qp)return;n=q.qp=function(){n.qp?n.qp.apply(n,arguments):n.queue.push(arguments)};n.queue=[];
t=document.createElement(e);t.async=!0;t.src=v;s=document.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,'script','https://a.quora.com/qevents.js');
qp('init',${jsString(value)});qp('track','ViewContent');`,
  ).value + noscriptImg(`https://q.quora.com/_/ad/${enc(value)}/pixel?tag=ViewContent&noscript=1`).value;

// X's current base code has no <noscript> fallback.
const twitter: PixelSnippet = (value, nonce) =>
  inlineScript(
    nonce,
    `!function(e,t,n,s,u,a){e.twq||(s=e.twq=function(){s.exe?s.exe.apply(s,arguments):s.queue.push(arguments)},
s.version='1.1',s.queue=[],u=t.createElement(n),u.async=!0,u.src='https://static.ads-twitter.com/uwt.js',
a=t.getElementsByTagName(n)[0],a.parentNode.insertBefore(u,a))}(window,document,'script');
twq('config',${jsString(value)});`,
  ).value;

export const PIXEL_SNIPPETS: Readonly<Record<PixelType, PixelSnippet>> = {
  adroll,
  bing,
  facebook,
  'google-ads': googleAds,
  'google-analytics': googleAnalytics,
  'google-tag-manager': googleTagManager,
  linkedin,
  pinterest,
  quora,
  twitter,
};
