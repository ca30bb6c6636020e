/** The signed-out front page: what linkpix is, and the way in. */
export const home = {
  title: 'Short links and tracking pixels',
  lead: 'linkpix makes short links you own, on this server or your own domains, and tells you who follows them.',
  featuresTitle: 'What it does',
  features: [
    {
      name: 'Short links',
      text: 'Your own aliases, custom domains, expiry, passwords, and destinations by country, language or device.',
    },
    { name: 'QR codes', text: 'A QR code for every link, as SVG or PNG, in your colours.' },
    { name: 'Pixels', text: 'Tracking pixels of the ad platforms you use, fired when a link is followed.' },
    {
      name: 'Statistics',
      text: 'Clicks over time, countries, referrers, browsers and devices, public or private per link.',
    },
    { name: 'API', text: 'Everything the pages do, over a documented REST API with keys.' },
  ],
  signIn: 'Sign in',
  signUp: 'Create an account',
  apiDocs: 'Read the API documentation',
} as const;
