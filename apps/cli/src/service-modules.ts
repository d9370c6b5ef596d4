// Every module of the service, loaded for what it declares about itself (migrations, error codes,
// configuration keys), so `migrate` applies the whole schema. One line per module; a command
// other than migrate loads only the module it uses (cli-commands.ts).
import '@outreach/agents';
import '@outreach/assist';
import '@outreach/knowledge';
import '@outreach/billing';
import '@outreach/calls';
import '@outreach/campaigns';
import '@outreach/crm';
import '@outreach/dnc';
import '@outreach/engine';
import '@outreach/exports';
import '@outreach/functions';
import '@outreach/messaging';
import '@outreach/notifications';
import '@outreach/results';
import '@outreach/telephony';
import '@outreach/workflows';
import '@outreach/workspaces';
