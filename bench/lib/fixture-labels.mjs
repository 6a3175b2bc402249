// What a person would call each field of the real lists in ../shared/fixtures (the lists the
// informativeness bench finds: each fixture's dominant array): the field that names a record,
// its low-cardinality states, its time, free text and measures. Labelled by hand from the data,
// never from what the trimmer picks. Paths are arrays of keys within a record; `[]` steps into
// every item of an array.

/**
 * One entry per list: `fixture` (path under the fixtures folder), `listPath` (keys to the array
 * of records), `identity`, `states`, `time`, `textField`, `numeric`, and `why` (the reason for
 * the choices, in one line).
 */
export const FIXTURE_LABELS = [
  {
    fixture: 'bigint/twitter-search-results.json',
    listPath: ['statuses'],
    identity: ['id'],
    states: [['lang']],
    time: ['created_at'],
    textField: ['text'],
    numeric: [['retweet_count']],
    why: 'a tweet is cited by its 64-bit id; lang is its only categorical (ja/zh); created_at is when it was posted',
  },
  {
    fixture: 'ci-logs/jenkins-apache-builds.json',
    listPath: ['jobs'],
    identity: ['name'],
    states: [['color']],
    numeric: [],
    why: 'a Jenkins job is its name; color is its build state (blue, red, disabled…); nothing else is recorded',
  },
  {
    fixture: 'cloud/aws-ec2-describe-instances.json',
    listPath: ['data', 'Reservations'],
    identity: ['ReservationId'],
    states: [
      ['Instances', '[]', 'State', 'Name'],
      ['Instances', '[]', 'Placement', 'AvailabilityZone'],
    ],
    numeric: [],
    why: 'a record is a reservation (one instance each), named by its ReservationId; instance state and zone are the states; LaunchTime is an object, not a time value',
  },
  {
    fixture: 'cloud/aws-securityhub-get-findings.json',
    listPath: ['data', 'Findings'],
    identity: ['Title'],
    states: [['Severity', 'Label']],
    time: ['UpdatedAt'],
    textField: ['Description'],
    numeric: [['ProductFields', 'aws/inspector/inspectorScore']],
    why: 'a finding is named by its title (CVE and package; Id is a 150-character ARN); severity is the state; UpdatedAt is the only time that varies much',
  },
  {
    fixture: 'cloud/terraform-v0.14-plan.json',
    listPath: ['resource_changes'],
    identity: ['address'],
    states: [['type'], ['change', 'actions', '[]']],
    numeric: [],
    why: 'a resource change is its address; its type and planned action are what a reviewer counts; a plan has no times',
  },
  {
    fixture: 'github-api/github-events.json',
    listPath: [],
    identity: ['id'],
    states: [['type']],
    time: ['created_at'],
    numeric: [],
    why: 'an event is its id; type (PushEvent, WatchEvent…) is the state; created_at is when it happened',
  },
  {
    fixture: 'k8s/k3s-custom-resource-definitions.json',
    listPath: ['items'],
    identity: ['metadata', 'name'],
    states: [
      ['spec', 'group'],
      ['spec', 'scope'],
    ],
    time: ['metadata', 'creationTimestamp'],
    numeric: [['metadata', 'generation']],
    why: 'a CRD is its metadata.name; API group and scope are its categories; generation counts its spec changes',
  },
  {
    fixture: 'k8s/k3s-events-kube-system.json',
    listPath: ['items'],
    identity: ['metadata', 'name'],
    states: [['type'], ['reason']],
    time: ['lastTimestamp'],
    textField: ['message'],
    numeric: [['count']],
    why: 'an event is its metadata.name; type (Normal/Warning) and reason are its states; lastTimestamp is when it last fired; message says what happened',
  },
  {
    fixture: 'k8s/k3s-pods-kube-system.json',
    listPath: ['items'],
    identity: ['metadata', 'name'],
    states: [
      ['status', 'phase'],
      ['status', 'qosClass'],
    ],
    time: ['metadata', 'creationTimestamp'],
    numeric: [],
    why: 'a pod is its metadata.name; phase and QoS class are its states; restart counts sit in per-container arrays',
  },
  {
    fixture: 'k8s/nodes-list.json',
    listPath: ['items'],
    identity: ['metadata', 'name'],
    states: [
      ['status', 'nodeInfo', 'kubeletVersion'],
      ['status', 'nodeInfo', 'containerRuntimeVersion'],
    ],
    time: ['metadata', 'creationTimestamp'],
    numeric: [['status', 'capacity', 'cpu']],
    why: 'a node is its metadata.name; kubelet and runtime versions are what an operator tallies; capacity.cpu is its size (a number written as a string)',
  },
  {
    fixture: 'unicode/cjk-tang-poems.json',
    listPath: [],
    identity: ['id'],
    states: [['author']],
    numeric: [],
    why: 'a poem is cited by its id (titles repeat); author is the category a reader counts by (a long tail); the poem itself is an array of lines, not one text field',
  },
];
