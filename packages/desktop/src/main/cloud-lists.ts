// Regions, zones and machine types the wizard offers for the cloud plugins
// that ship with netbench. The plugins validate names only by pattern (the
// clouds add zones every year), so this is a curated starting list: anything
// else can be typed in the wizard or the YAML.

export interface CloudList {
  readonly regions: Readonly<Record<string, readonly string[]>>;
  readonly machineTypes: readonly string[];
}

export const CLOUD_LISTS: Readonly<Record<string, CloudList>> = {
  aws: {
    regions: {
      'us-east-1': ['us-east-1a', 'us-east-1b', 'us-east-1c'],
      'us-west-2': ['us-west-2a', 'us-west-2b', 'us-west-2c'],
      'eu-west-1': ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'],
      'eu-central-1': ['eu-central-1a', 'eu-central-1b'],
      'ap-northeast-1': ['ap-northeast-1a', 'ap-northeast-1c'],
      'ap-southeast-2': ['ap-southeast-2a', 'ap-southeast-2b'],
    },
    machineTypes: ['t3.micro', 'm5.large', 'm5.xlarge', 'c5n.large', 'c5n.9xlarge', 'm6i.large', 'm7g.large', 'm4.4xlarge'],
  },
  gcp: {
    regions: {
      'us-central1': ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'],
      'us-east1': ['us-east1-b', 'us-east1-c', 'us-east1-d'],
      'us-west1': ['us-west1-a', 'us-west1-b'],
      'europe-west1': ['europe-west1-b', 'europe-west1-c', 'europe-west1-d'],
      'europe-west4': ['europe-west4-a', 'europe-west4-b'],
      'asia-east1': ['asia-east1-a', 'asia-east1-b'],
      'australia-southeast1': ['australia-southeast1-a', 'australia-southeast1-b'],
    },
    machineTypes: ['e2-standard-2', 'n2-standard-2', 'n2-standard-8', 'n1-standard-2', 'n1-standard-16', 'c2-standard-8', 'c3-standard-4'],
  },
  azure: {
    regions: {
      eastus: ['eastus-1', 'eastus-2', 'eastus-3'],
      westus2: ['westus2-1', 'westus2-2', 'westus2-3'],
      westeurope: ['westeurope-1', 'westeurope-2', 'westeurope-3'],
      northeurope: ['northeurope-1', 'northeurope-2'],
      japaneast: ['japaneast-1', 'japaneast-2'],
    },
    machineTypes: ['Standard_B2s', 'Standard_D2s_v5', 'Standard_D4s_v5', 'Standard_D8s_v5', 'Standard_F4s_v2'],
  },
};
